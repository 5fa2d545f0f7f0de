package io.securethrift.bench.peer;

import io.securethrift.bench.Payloads;
import io.securethrift.core.testing.LineRecord;
import java.util.Locale;

/**
 * One quantity a cell measures: bulk throughput (MB/s each way, large echo calls on one connection), small round
 * trips (calls/s), or new connections (connect, handshake, a 1-byte call, close per second).
 *
 * @param name the metric's key in result files, for example {@code bulk-1MiB}
 * @param kind {@code bulk}, {@code rt} or {@code connect}
 * @param size payload bytes of each call
 */
record PeerMetric(String name, String kind, int size) {
  static final String BULK = "bulk";
  static final String ROUND_TRIPS = "rt";
  static final String CONNECT = "connect";
  static final PeerMetric CONNECTIONS = new PeerMetric(CONNECT, CONNECT, 1);

  static PeerMetric bulk(int size) {
    return new PeerMetric(BULK + "-" + Payloads.sizeLabel(size), BULK, size);
  }

  static PeerMetric roundTrips(int size) {
    return new PeerMetric(ROUND_TRIPS + "-" + Payloads.sizeLabel(size), ROUND_TRIPS, size);
  }

  /** The unit {@link #rate} is in. */
  String unit() {
    switch (kind) {
      case BULK:
        return "MB/s each way";
      case ROUND_TRIPS:
        return "round trips/s";
      default:
        return "connections/s";
    }
  }

  /** For tables: what was measured, in words. */
  String describe() {
    return kind.equals(CONNECT) ? "new connections/s (connect, 1-byte call, close)"
        : String.format(Locale.ROOT, "%s, %s messages", unit(),
            Payloads.sizeLabel(size).replaceFirst("(\\d)(\\D)", "$1 $2"));
  }

  /** The rate {@code ops} operations in {@code nanos} make, in {@link #unit()}. */
  double rate(long ops, long nanos) {
    double perSecond = ops * 1e9 / nanos;
    return kind.equals(BULK) ? perSecond * size / 1e6 : perSecond;
  }

  /** The command a cell runs to measure this metric for {@code seconds} on a connection opened for it. */
  LineRecord command(double seconds) {
    return command(seconds, false);
  }

  /**
   * The command a cell runs to measure this metric for {@code seconds}; {@code sameConnection} keeps the connection
   * the cell's last turn at this metric used (the turns of one round follow closely).
   */
  LineRecord command(double seconds, boolean sameConnection) {
    LineRecord c = LineRecord.of(kind.equals(CONNECT) ? PeerCell.CONNECT : PeerCell.ECHO).with("seconds", seconds);
    return kind.equals(CONNECT) ? c : c.with("size", size).with("reuse", sameConnection);
  }

  /** The raw row's column of operations done. */
  String opsColumn() {
    return name + "_ops";
  }

  /** The raw row's column of CPU nanoseconds the cell's JVM spent. */
  String cpuColumn() {
    return name + "_cpu_ns";
  }

  /** The raw row's column of milliseconds the cell's JIT compiled during the measurement. */
  String jitColumn() {
    return name + "_jit_ms";
  }

  /** The raw row's column of nanoseconds taken. */
  String nanosColumn() {
    return name + "_ns";
  }
}
