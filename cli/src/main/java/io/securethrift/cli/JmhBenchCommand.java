package io.securethrift.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Parameters;

/**
 * A launcher command that runs one module's JMH benchmarks and prints their table of ratios to no security; any
 * arguments are handed to JMH ({@code -p size=65536}, {@code -f 2}, {@code -i 5}, a benchmark regex).
 */
abstract class JmhBenchCommand implements Callable<Integer> {
  @Parameters(arity = "0..*", paramLabel = "JMH-ARG", description = "JMH arguments; the defaults suit a 2-core machine"
      + " (one fork, 2 x 1 s warm-up, 3 x 2 s measurement).")
  List<String> jmhArgs = new ArrayList<>();

  abstract String run(String[] args) throws Exception;

  @Override
  public Integer call() throws Exception {
    System.out.println(run(jmhArgs.toArray(String[]::new)));
    return 0;
  }
}
