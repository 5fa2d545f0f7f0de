package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders without complaint. Picocli formats help texts with {@link String#format}; a
 * bare {@code %} ("95 % interval") makes it print a WARN to the user's terminal on every {@code --help} and fall back
 * to the raw text. Picocli's warnings go to {@link System#err}, so it is captured while the help is rendered.
 */
class HelpTextTest {

  @Test
  void everyCommandsHelpRendersWithoutAWarning() {
    List<String> commands = new ArrayList<>();
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      render(Main.commandLine(), commands);
    } finally {
      System.setErr(err);
    }
    assertTrue(commands.size() > 10, "too few commands found: " + commands);
    assertEquals("", warnings.toString(StandardCharsets.UTF_8), "help of " + commands);
  }

  private static void render(CommandLine cli, List<String> commands) {
    commands.add(cli.getCommandSpec().qualifiedName());
    assertTrue(cli.getUsageMessage().contains("Usage:"), cli.getCommandSpec().qualifiedName());
    for (CommandLine sub : cli.getSubcommands().values()) {
      render(sub, commands);
    }
  }
}
