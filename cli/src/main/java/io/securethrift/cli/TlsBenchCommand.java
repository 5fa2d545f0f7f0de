package io.securethrift.cli;

import io.securethrift.bench.tls.TlsBenchmarks;
import picocli.CommandLine.Command;

/** {@code tls-bench}: Thrift call throughput and handshakes per second for none, JSSE and Conscrypt. */
@Command(name = "tls-bench", mixinStandardHelpOptions = true, description = {
    "Thrift echo throughput (128 B to 64 KiB) and full and resumed handshakes per second for none, JSSE and Conscrypt,"
        + " as ratios to none (JMH).",
    "Other arguments go to JMH; the defaults suit a 2-core machine (1 fork, 2 x 1 s warm-up, 3 x 2 s measurement)."})
final class TlsBenchCommand extends JmhBenchCommand {
  @Override
  String run(String[] args) throws Exception {
    return TlsBenchmarks.run(args);
  }
}
