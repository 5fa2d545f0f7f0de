package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sasl-bench privacy}: a command line without the baseline is refused by name before anything runs. */
class PrivacyBenchCommandTest {
  @TempDir
  Path dir;

  @Test
  void modesWithoutTheBaselineAreRefusedByName() {
    StringWriter errors = new StringWriter();
    int code = new CommandLine(new PrivacyBenchCommand()).setErr(new PrintWriter(errors))
        .execute("--modes", "auth-conf,auth-conf-gcm", "--output", dir.toString());
    assertTrue(code != 0);
    assertTrue(errors.toString().contains("--modes")
        && errors.toString().contains("[sasl-auth-conf, sasl-auth-conf-gcm] leaves out none or sasl-auth-conf, which"
        + " every other mode is compared with"), errors.toString());
  }
}
