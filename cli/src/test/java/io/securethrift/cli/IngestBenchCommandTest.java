package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ingest-bench compare} refuses, by name, a file that is not an ingest-bench result file; the help lists every
 * fault {@code --faults} runs.
 */
class IngestBenchCommandTest {
  @TempDir
  Path output;

  @Test
  void compareNamesAFileThatIsNotAResult() throws Exception {
    Path bogus = Files.writeString(output.resolve("bogus.json"), "{\"modes\": []}");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cli = new CommandLine(new IngestBenchCommand());
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    int code = cli.execute("compare", bogus.toString(), bogus.toString());
    assertTrue(code != 0, "exit code " + code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("is not a result file of ingest-bench: not a benchmark"
        + " result file: no \"labels\""), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theHelpListsEveryFault() {
    String help = new CommandLine(new IngestBenchCommand()).getUsageMessage().replaceAll("\\s+", " ");
    assertTrue(help.contains("--modes: restart, rotate, expire, kdc, net, tls-on (see docs/resilience.md;"), help);
  }
}
