package io.securethrift.bench.tls;

import io.securethrift.bench.JmhOptions;
import io.securethrift.bench.RatioTable;
import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.Options;

/**
 * Entry point of the {@code tls-bench} command: runs the TLS benchmarks (echo throughput and handshakes for none,
 * JSSE and Conscrypt) with JMH command-line arguments, then prints each score as a ratio to {@code none} measured in
 * the same run.
 */
public final class TlsBenchmarks {
  private TlsBenchmarks() {}

  /**
   * JMH options for the TLS benchmarks: the given JMH arguments (for example {@code -f 1 -wi 2 -i 3 -w 2s -r 3s}),
   * limited to this package unless the arguments name benchmarks themselves, with 2-core defaults for the rest.
   */
  public static Options options(String... jmhArgs) throws CommandLineOptionException {
    return JmhOptions.of(TlsBenchmarks.class.getPackageName() + "\\..*Benchmark\\..*", jmhArgs);
  }

  /** Runs the benchmarks and returns the Markdown table of scores and ratios to {@code none}. */
  public static String run(String... jmhArgs) throws CommandLineOptionException, RunnerException {
    Collection<RunResult> results = new Runner(options(jmhArgs)).run();
    return RatioTable.markdown(results, "security", "none");
  }

  public static void main(String[] args) throws Exception {
    System.out.println(run(args));
  }
}
