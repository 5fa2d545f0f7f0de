package io.securethrift.cli;

import io.securethrift.harness.Compare;
import io.securethrift.harness.ResultsFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code compare A.json B.json} subcommand every benchmark shares: two runs' overheads side by side with their
 * intervals, real differences marked ({@link Compare}). A benchmark's command nests a subclass with its own
 * {@code @Command} (name and description) and its tool name, so that a file another tool wrote is refused.
 */
abstract class CompareCommand implements Callable<Integer> {
  private final String tool;

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "A.json", description = "The first run's results file.")
  private Path a;

  @Parameters(index = "1", paramLabel = "B.json", description = "The second run's results file.")
  private Path b;

  /** @param tool the name in the result files this command compares ({@link ResultsFile#tool()}) */
  CompareCommand(String tool) {
    this.tool = tool;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    out.print(Compare.table(read(a), read(b), a.toString(), b.toString()));
    out.flush();
    return 0;
  }

  private ResultsFile read(Path file) throws IOException {
    try {
      return ResultsFile.read(file, tool);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, file.toString());
    }
  }
}
