package io.securethrift.cli;

import io.securethrift.harness.ResultsDocs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code docs FILE.md RESULTS.json...} subcommand every benchmark shares: writes runs into the document's section
 * of the tool as the tool's {@link ResultsDocs} says. A benchmark's command nests a subclass with its own
 * {@code @Command} (name and description) and its tool's {@link ResultsDocs}.
 */
abstract class DocsCommand implements Callable<Integer> {
  private final ResultsDocs docs;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE.md", description = "The document to update.")
  private Path document;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "RESULTS.json",
      description = "The runs' result files, oldest first.")
  private List<Path> results;

  DocsCommand(ResultsDocs docs) {
    this.docs = docs;
  }

  @Override
  public Integer call() throws IOException {
    try {
      docs.write(document, results);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, document.toString());
    }
    spec.commandLine().getOut().println("updated " + document);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
