package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.bench.peer.PeerSettings;
import io.securethrift.core.ConfigException;
import io.securethrift.harness.StoppingRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** peer-bench's options as the settings the benchmark runs with, and a bad value named by its option. */
class PeerBenchCommandTest {
  private static PeerSettings settings(String... args) {
    PeerBenchCommand command = new PeerBenchCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings();
  }

  @Test
  void optionsBecomeSettingsAndABadValueNamesItsOption() {
    PeerSettings settings = settings("--no-connections", "--bulk-sizes", "65536", "--pairings", "our-client");
    assertEquals(List.of(65536), settings.bulkSizes());
    assertEquals(List.of(1024), settings.smallSizes());
    assertFalse(settings.connections());
    assertEquals("[LIBTHRIFT, OUR_CLIENT]", settings.pairings().toString(), "the baseline always runs");

    ConfigException e = assertThrows(ConfigException.class, () -> settings("--modes", "tls"));
    assertTrue(e.getMessage().contains("--modes")
        && e.getMessage().contains("'tls' is not a mode peer-bench runs; it runs none,"), e.getMessage());
    PeerSettings defaults = settings();
    assertEquals(6, defaults.turns());
    assertEquals(30, defaults.warmUpTurns());
    assertEquals(1.0, defaults.warmUp());
    assertEquals(PeerSettings.DEFAULT_STOPPING, defaults.stoppingRule());
    assertEquals(PeerSettings.PAIRINGS.size(), defaults.pairings().size());
    assertEquals(StoppingRule.fixed(2), settings("--rounds", "2").stoppingRule());
    e = assertThrows(ConfigException.class, () -> settings("--warm-up-turns", "0"));
    assertTrue(e.getMessage().contains("--warm-up-turns"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings("--turns", "0"));
    assertTrue(e.getMessage().contains("--turns") && e.getMessage().contains("0 is not a number of turns"),
        e.getMessage());
  }
}
