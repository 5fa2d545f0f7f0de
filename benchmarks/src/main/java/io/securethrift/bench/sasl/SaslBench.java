package io.securethrift.bench.sasl;

import io.securethrift.bench.JmhOptions;
import io.securethrift.bench.RatioTable;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.Options;

/**
 * Entry point of the launcher's {@code sasl-bench} command: runs the SASL throughput and set-up benchmarks with
 * settings modest enough for a shared 2-core machine and prints Markdown tables with ratios to {@code none}.
 */
public final class SaslBench {
  private SaslBench() {}

  /** Runs both benchmarks and prints the tables; {@code args} are JMH arguments (for example {@code -p size=1024}). */
  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    System.out.print(run(args));
  }

  /** Runs the benchmarks (those named in {@code jmhArgs}, else all SASL ones) and returns Markdown tables. */
  public static String run(String... jmhArgs) throws RunnerException, CommandLineOptionException {
    Options options = JmhOptions.of(SaslBench.class.getPackageName() + ".*Benchmark", jmhArgs);
    Collection<RunResult> results = new Runner(options).run();
    StringBuilder out = new StringBuilder(RatioTable.markdown(results, "mode", "none"));
    out.append("\n| benchmark | mode | size | MB/s each way | set-up median ms |\n|---|---|---|---|---|\n");
    for (RunResult r : results) {
      var p = r.getParams();
      boolean setup = p.getBenchmark().endsWith("connect");
      String size = setup ? "" : p.getParam("size");
      String mbs = setup ? "" : String.format(Locale.ROOT, "%.0f",
          r.getPrimaryResult().getScore() * Integer.parseInt(size) / 1e6);
      String median = setup ? String.format(Locale.ROOT, "%.2f",
          r.getPrimaryResult().getStatistics().getPercentile(50)) : "";
      out.append("| ").append(p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.', p.getBenchmark()
          .lastIndexOf('.') - 1) + 1)).append(" | ").append(p.getParam("mode")).append(" | ").append(size)
          .append(" | ").append(mbs).append(" | ").append(median).append(" |\n");
    }
    return out.toString();
  }
}
