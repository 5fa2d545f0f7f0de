package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingRule;
import io.securethrift.zkbench.ZkSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** zk-bench's options as the settings the benchmark runs with, and its compare refusing another tool's file. */
class ZkBenchCommandTest {
  @TempDir
  Path dir;

  private static ZkSettings settings(String... args) {
    ZkBenchCommand command = new ZkBenchCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings();
  }

  @Test
  void optionsBecomeSettingsAndABadValueNamesItsOption() {
    ZkSettings defaults = settings();
    assertEquals(ZkSettings.DEFAULT_STOPPING, defaults.stoppingRule());
    assertEquals(ZkSettings.DEFAULT_WARMUP_ROUNDS, defaults.warmupRounds());
    assertEquals(List.of(ZkSettings.DEFAULT_ZNODES, 100, 3, ZkSettings.DEFAULT_FORKS),
        List.of(defaults.znodes(), defaults.syncZnodes(), defaults.sessions(), defaults.forks()));
    assertEquals(Path.of("zk-results"), defaults.output());
    ZkSettings given = settings("--shapes", "both", "--modes", "none,tls12-jsse", "--znodes", "40", "--sync-znodes",
        "10", "--sessions", "2", "--forks", "1", "--warmup-rounds", "0", "--rounds", "3", "--output", "out");
    assertEquals("[BOTH]", given.shapes().toString());
    assertEquals(2, given.modes().size());
    assertEquals(List.of(40, 10, 2, 1, 0), List.of(given.znodes(), given.syncZnodes(), given.sessions(),
        given.forks(), given.warmupRounds()));
    assertEquals(StoppingRule.fixed(3), given.stoppingRule());
    ConfigException e = assertThrows(ConfigException.class, () -> settings("--shapes", "client"));
    assertTrue(e.getMessage().contains("--shapes") && e.getMessage().contains("client-tls, quorum-tls, both"),
        e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings("--forks", "0"));
    assertTrue(e.getMessage().contains("--forks") && e.getMessage().contains("outside 1 to 4"), e.getMessage());
  }

  @Test
  void compareRefusesAnotherToolsFile() throws Exception {
    Path other = dir.resolve("other.json");
    Files.writeString(other, new ResultsFile("ingest-bench", Map.of(), Map.of(), "server", "mode", "none",
        "ROUNDS_DONE", 3.0, List.of(), List.of(), List.of()).toJson(), StandardCharsets.UTF_8);
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new ZkBenchCommand());
    cli.setErr(new PrintWriter(err, true));
    assertEquals(2, cli.execute("compare", other.toString(), other.toString()), "a usage error");
    assertTrue(err.toString().contains("other.json was written by ingest-bench, not zk-bench"), err.toString());
  }
}
