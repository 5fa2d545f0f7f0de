package io.securethrift.bench.sasl;

import io.securethrift.bench.JmhOptions;
import io.securethrift.bench.RatioTable;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
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

  /**
   * Runs the benchmarks (those named in {@code jmhArgs}, else the SASL echo and set-up ones) and returns Markdown
   * tables.
   */
  public static String run(String... jmhArgs) throws RunnerException, CommandLineOptionException {
    Options options = JmhOptions.of(SaslBench.class.getPackageName() + ".Sasl.*Benchmark", jmhArgs);
    Collection<RunResult> results = new Runner(options).run();
    List<RunResult> byMode = results.stream().filter(r -> r.getParams().getParam("mode") != null)
        .collect(Collectors.toList());
    StringBuilder out = new StringBuilder(byMode.isEmpty() ? "" : RatioTable.markdown(byMode, "mode", "none"));
    StringBuilder modes = new StringBuilder();
    StringBuilder providers = new StringBuilder();
    for (RunResult r : results) {
      var p = r.getParams();
      double score = r.getPrimaryResult().getScore();
      if (p.getParam("provider") != null) {
        providers.append(String.format(Locale.ROOT, "| %s | %s | %.0f |%n", p.getParam("provider"),
            p.getParam("access"), score / 1e6));
        continue;
      }
      boolean setup = p.getBenchmark().endsWith("connect");
      String size = setup ? "" : p.getParam("size");
      String mbs = setup ? "" : String.format(Locale.ROOT, "%.0f", score * Integer.parseInt(size) / 1e6);
      String median = setup ? String.format(Locale.ROOT, "%.2f",
          r.getPrimaryResult().getStatistics().getPercentile(50)) : "";
      modes.append("| ").append(p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.', p.getBenchmark()
          .lastIndexOf('.') - 1) + 1)).append(" | ").append(p.getParam("mode"))
          .append("false".equals(p.getParam("closeAtTicketEnd")) ? " (no ticket-end check)" : "").append(" | ")
          .append(size)
          .append(" | ").append(mbs).append(" | ").append(median).append(" |\n");
    }
    if (modes.length() > 0) {
      out.append("\n| benchmark | mode | size | MB/s each way | set-up median ms |\n|---|---|---|---|---|\n")
          .append(modes);
    }
    if (providers.length() > 0) {
      out.append("\n| AES-GCM provider | access | MB/s sealed and opened |\n|---|---|---|\n").append(providers);
    }
    return out.toString();
  }
}
