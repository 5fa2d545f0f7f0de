package io.securethrift.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code docs FILE.md RESULTS.json...} subcommand every benchmark shares: replaces the document's section of the
 * tool ({@link DocsSection}) with the runs' agreement ({@link Agreement}, when there are several) and the last run's
 * tables, so that the figures in the docs are always runs', never copied by hand. A benchmark subclasses it with its
 * own {@code @Command} (name and description), its tool name, its tables, its tolerances and whether coverage is
 * judged.
 */
public abstract class DocsCommand implements Callable<Integer> {
  private final String tool;
  private final Function<ResultsFile, String> tables;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE.md", description = "The document to update.")
  private Path document;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "RESULTS.json",
      description = "The runs' result files, oldest first.")
  private List<Path> results;

  /**
   * @param tool the name in the result files ({@link ResultsFile#tool()}), which also names the section's markers
   * @param tables the tool's tables of one run, in Markdown
   */
  protected DocsCommand(String tool, Function<ResultsFile, String> tables) {
    this.tool = tool;
    this.tables = tables;
  }

  /** The markers of this tool's section. */
  public DocsSection section() {
    return DocsSection.of(tool);
  }

  /** Points each metric of {@code runs} may differ by between runs that agree; a metric left out is not judged. */
  protected abstract Map<String, Double> tolerances(List<ResultsFile> runs);

  /**
   * Whether runs within their tolerances must also have intervals covering each other's estimates to agree
   * ({@link Agreement}); yes unless the tool's done criterion asks for the tolerances alone.
   */
  protected boolean coverageJudged() {
    return true;
  }

  @Override
  public Integer call() throws IOException {
    try {
      List<ResultsFile> runs = new ArrayList<>();
      for (Path file : results) {
        runs.add(ResultsFile.read(file, tool));
      }
      section().write(document, results, tool, tolerances(runs), coverageJudged(), tables);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, document.toString());
    }
    spec.commandLine().getOut().println("updated " + document);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
