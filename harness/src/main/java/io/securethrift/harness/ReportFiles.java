package io.securethrift.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What every benchmark's report is written as: its files, written together into one directory ({@link #write}), and
 * its self-contained HTML page ({@link #page}: charts and the tables, no script, no external resource).
 */
public final class ReportFiles {
  private ReportFiles() {}

  /**
   * Writes each file of {@code files} (its name, its text) into {@code dir} as UTF-8, creating the directory if need
   * be.
   *
   * @return the paths written, in the order of {@code files}
   */
  public static List<Path> write(Path dir, List<Map.Entry<String, String>> files) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, String> file : files) {
      written.add(Files.writeString(dir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8));
    }
    return List.copyOf(written);
  }

  /**
   * A page titled {@code securethrift NAME}: the heading, then {@code body} (HTML, written as it is: charts,
   * lists), then {@code text} (the report's tables, escaped) as preformatted text.
   */
  public static String page(String name, String heading, String body, String text) {
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>securethrift " + OverheadChart.escape(name)
        + "</title></head><body>\n<h1>" + OverheadChart.escape(heading) + "</h1>\n" + body + "<pre>"
        + OverheadChart.escape(text) + "</pre>\n</body></html>\n";
  }
}
