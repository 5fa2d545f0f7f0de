package io.securethrift.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.ConfigProperty;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md in step with {@link ConfigProperty}: the table between the markers must be exactly what
 * the code defines. Run with {@code -Ddocs.update=true} to rewrite it after changing a setting.
 */
class ConfigurationReferenceTest {
  private static final String BEGIN = "<!-- BEGIN GENERATED: ConfigProperty -->";
  private static final String END = "<!-- END GENERATED: ConfigProperty -->";
  private static final Path PAGE = Path.of("configuration.md");

  static String table() {
    StringBuilder s = new StringBuilder("| key | type | default | accepted | meaning |\n|---|---|---|---|---|\n");
    for (ConfigProperty p : ConfigProperty.values()) {
      String value = p.defaultValue().isEmpty() ? "(empty)" : "`" + p.defaultValue() + "`";
      s.append("| `").append(p.key()).append("` | ").append(p.type().token()).append(" | ").append(value)
          .append(" | ").append(cell(p.accepted())).append(" | ").append(cell(p.description())).append(" |\n");
    }
    return s.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  @Test
  void referenceTableMatchesTheCode() throws IOException {
    String page = Files.readString(PAGE, StandardCharsets.UTF_8);
    int begin = page.indexOf(BEGIN) + BEGIN.length();
    int end = page.indexOf(END);
    String expected = page.substring(0, begin) + "\n" + table() + page.substring(end);
    if (Boolean.getBoolean("docs.update")) {
      Files.writeString(PAGE, expected, StandardCharsets.UTF_8);
    }
    assertEquals(expected, page, "docs/configuration.md is out of date: run ./mvnw -pl docs test -Ddocs.update=true");
  }
}
