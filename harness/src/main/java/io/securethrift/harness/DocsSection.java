package io.securethrift.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The part of a document a benchmark's {@code docs} command owns: the text between a begin and an end marker line,
 * replaced whole with a run's tables, so that figures in the docs always come from a run and never by hand.
 *
 * @param begin the marker line before the section
 * @param end the marker line after it
 */
public record DocsSection(String begin, String end) {

  /** The markers of {@code tool}'s section: {@code <!-- TOOL results: written by 'TOOL docs', ... -->}. */
  public static DocsSection of(String tool) {
    return new DocsSection("<!-- " + tool + " results: written by '" + tool + " docs', do not edit by hand -->",
        "<!-- end of " + tool + " results -->");
  }

  /**
   * {@code text} with its section replaced by {@code section}.
   *
   * @throws IllegalArgumentException naming {@code document} and both markers when they are missing or out of order
   */
  public String replace(String text, String section, String document) {
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from < 0 || to < from) {
      throw new IllegalArgumentException(document + " has no '" + begin + "' line followed by an '" + end
          + "' line; add both where the tables belong");
    }
    return text.substring(0, from + begin.length()) + "\n\n" + section + "\n" + text.substring(to);
  }

  /**
   * Writes runs into {@code document}'s section: a single run's tables, or, for several, whether they agree
   * ({@link Agreement}, with {@code tolerances} and {@code coverageJudged}) followed by the last run's tables.
   *
   * @param files the runs' result files, oldest first, as {@code tool} wrote them (they also name the runs)
   * @param tables the tool's tables of one run
   * @throws IllegalArgumentException when a file is not the tool's result file or the document lacks the markers
   */
  public void write(Path document, List<Path> files, String tool, Map<String, Double> tolerances,
      boolean coverageJudged, Function<ResultsFile, String> tables) throws IOException {
    List<ResultsFile> runs = new ArrayList<>();
    for (Path file : files) {
      runs.add(ResultsFile.read(file, tool));
    }
    ResultsFile last = runs.get(runs.size() - 1);
    String section = runs.size() < 2 ? tables.apply(last) : "### Agreement of " + runs.size() + " runs\n\n"
        + new Agreement(runs, Agreement.names(files), tolerances, coverageJudged).markdown() + "\n### The last run\n\n"
        + tables.apply(last);
    String text = Files.readString(document, StandardCharsets.UTF_8);
    Files.writeString(document, replace(text, section, document.toString()), StandardCharsets.UTF_8);
  }
}
