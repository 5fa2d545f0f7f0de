package io.securethrift.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/** The JMH table: made-up results of three steady iterations each, and their ratio to the baseline mode. */
class RatioTableTest {
  private static final String ECHO = "io.securethrift.bench.tls.EchoThroughputBenchmark.echo";

  @Test
  void eachRowHasItsScoreAndTheRatioToTheBaselineOfTheSameBenchmarkAndParameters() {
    List<RunResult> results = new ArrayList<>();
    results.add(run(ECHO, "tls", 1024, 800));
    results.add(run(ECHO, "none", 65536, 50));
    results.add(run(ECHO, "none", 1024, 1000));
    results.add(run(ECHO, "tls", 65536, 40.5));
    results.add(run("io.securethrift.bench.tls.HandshakeBenchmark.full", "tls", 1024, 123.45));
    assertEquals("| benchmark | params | engine | score | error | unit | ratio to none |\n"
        + "|---|---|---|---|---|---|---|\n"
        + "| EchoThroughputBenchmark.echo | size=1024 | none | 1000.0 | 0.0 | ops/s | 1.00 |\n"
        + "| EchoThroughputBenchmark.echo | size=1024 | tls | 800.0 | 0.0 | ops/s | 0.80 |\n"
        + "| EchoThroughputBenchmark.echo | size=65536 | none | 50.0 | 0.0 | ops/s | 1.00 |\n"
        + "| EchoThroughputBenchmark.echo | size=65536 | tls | 40.5 | 0.0 | ops/s | 0.81 |\n"
        + "| HandshakeBenchmark.full | size=1024 | tls | 123.5 | 0.0 | ops/s |  |\n",
        RatioTable.markdown(results, "engine", "none").replace(String.format("%n"), "\n"));
  }

  @Test
  void withoutTheBaselineEveryRatioIsBlank() {
    String table = RatioTable.markdown(List.of(run(ECHO, "tls", 1024, 800)), "engine", "plain");
    assertEquals("| benchmark | params | engine | score | error | unit | ratio to plain |\n"
        + "|---|---|---|---|---|---|---|\n"
        + "| EchoThroughputBenchmark.echo | size=1024 | tls | 800.0 | 0.0 | ops/s |  |\n",
        table.replace(String.format("%n"), "\n"));
  }

  /** A run whose three measured iterations each did {@code perSecond} operations in one second. */
  private static RunResult run(String benchmark, String engine, int size, double perSecond) {
    WorkloadParams workload = new WorkloadParams();
    workload.put("engine", engine, 0);
    workload.put("size", Integer.toString(size), 1);
    IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.seconds(1), 1);
    IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, 3, TimeValue.seconds(1), 1);
    BenchmarkParams params = new BenchmarkParams(benchmark, benchmark + "_Throughput", false, 1, new int[] {1},
        List.of(), 1, 0, warmup, measurement, Mode.Throughput, workload, TimeUnit.SECONDS, 1, "java", List.of(),
        "17", "vm", "17", "1.37", TimeValue.minutes(10));
    List<IterationResult> iterations = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      IterationResult iteration = new IterationResult(params, measurement, null);
      iteration.addResult(new ThroughputResult(ResultRole.PRIMARY, "echo", perSecond, 1_000_000_000L,
          TimeUnit.SECONDS));
      iterations.add(iteration);
    }
    return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
  }
}
