package io.securethrift.bench.sasl;

import io.securethrift.bench.RatioTable;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Entry point of the launcher's {@code sasl-bench} command: runs the SASL throughput and set-up benchmarks with
 * settings modest enough for a shared 2-core machine and prints Markdown tables with ratios to {@code none}.
 */
public final class SaslBench {
  private SaslBench() {}

  /** Runs both benchmarks and prints the tables; {@code args} may hold one JMH include regex to narrow the run. */
  public static void main(String[] args) throws RunnerException {
    System.out.print(run(args.length > 0 ? args[0] : SaslBench.class.getPackageName() + ".*Benchmark"));
  }

  /** Runs the benchmarks matching {@code include} and returns the result tables as Markdown. */
  public static String run(String include) throws RunnerException {
    Options options = new OptionsBuilder().include(include).forks(1).warmupIterations(2)
        .warmupTime(TimeValue.seconds(1)).measurementIterations(3).measurementTime(TimeValue.seconds(2))
        .jvmArgsAppend("-Xmx1g").build();
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
