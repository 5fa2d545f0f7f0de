package io.securethrift.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How a benchmark writes runs into the docs ({@code TOOL docs FILE.md RESULTS.json...}): its section of the document
 * ({@link DocsSection}) gets the runs' agreement ({@link Agreement}, when there are several) and the last run's tables,
 * so that the figures in the docs are always runs', never copied by hand.
 *
 * @param tool the name in the result files ({@link ResultsFile#tool()}), which also names the section's markers
 * @param tables the tool's tables of one run, in Markdown
 * @param tolerances points each metric of the runs may differ by between runs that agree; a metric left out is not
 *     judged
 * @param coverageJudged whether runs within their tolerances must also have intervals covering each other's estimates
 *     to agree; yes unless the tool's done criterion asks for the tolerances alone
 */
public record ResultsDocs(String tool, Function<ResultsFile, String> tables,
    Function<List<ResultsFile>, Map<String, Double>> tolerances, boolean coverageJudged) {

  /** The markers of this tool's section. */
  public DocsSection section() {
    return DocsSection.of(tool);
  }

  /**
   * Writes the runs of {@code results}, oldest first, into {@code document}'s section.
   *
   * @throws IllegalArgumentException when a file is not the tool's result file or the document lacks the markers
   */
  public void write(Path document, List<Path> results) throws IOException {
    List<ResultsFile> runs = new ArrayList<>();
    for (Path file : results) {
      runs.add(ResultsFile.read(file, tool));
    }
    section().write(document, results, tool, tolerances.apply(runs), coverageJudged, tables);
  }
}
