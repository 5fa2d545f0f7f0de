package io.securethrift.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Unmatched;

/**
 * A launcher command that runs one module's JMH benchmarks and prints their table of ratios to no security; any
 * arguments are handed to JMH ({@code -p size=65536}, {@code -f 2}, {@code -i 5}, a benchmark regex).
 */
abstract class JmhBenchCommand implements Callable<Integer> {
  /** Everything picocli does not recognize goes to JMH, so JMH's own options ({@code -f}, {@code -p}) work as is. */
  @Unmatched
  List<String> jmhArgs = new ArrayList<>();

  abstract String run(String[] args) throws Exception;

  @Override
  public Integer call() throws Exception {
    System.out.println(run(jmhArgs.toArray(String[]::new)));
    return 0;
  }
}
