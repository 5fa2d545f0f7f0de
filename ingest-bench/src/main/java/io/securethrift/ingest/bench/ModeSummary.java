package io.securethrift.ingest.bench;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One server model's security level reduced to the report's columns: medians over its measured rounds of wall time,
 * throughput and each side's CPU per entry and per MB of payload (its JIT compilers' left out, as in the CPU metric),
 * GC, wire bytes and payload, with its overheads against the baseline in wall time and in CPU per entry (the
 * baseline's are zero, without bounds).
 */
record ModeSummary(String server, String mode, int rounds, double wallMs, double entries, double entriesPerSecond,
    double megabytesPerSecond, double clientUsPerEntry, double serverUsPerEntry, double clientUsPerMb,
    double serverUsPerMb, double clientGcMs, double serverGcMs, double clientWireMb, double serverWireMb,
    double payloadMb, Interval wallOverhead, Interval cpuOverhead) {

  /** The summary of {@code rows} (one server model and mode, warm-up excluded). */
  static ModeSummary of(String server, String mode, List<Measurement> rows, Interval wall, Interval cpu) {
    double wallMs = Measurement.median(rows, m -> m.value(IterationRow.WALL_MS));
    double entries = Measurement.median(rows, m -> m.value(IterationRow.ENTRIES));
    return new ModeSummary(server, mode, rows.size(), wallMs, entries,
        Measurement.median(rows, m -> m.value(IterationRow.ENTRIES) / m.value(IterationRow.WALL_MS) * 1e3),
        Measurement.median(rows, m -> m.value(IterationRow.PAYLOAD_BYTES) / m.value(IterationRow.WALL_MS) / 1e3),
        Measurement.median(rows, m -> IterationRow.workCpuMs(m, IterationRow.CLIENT) * 1e3
            / m.value(IterationRow.ENTRIES)),
        Measurement.median(rows, m -> IterationRow.workCpuMs(m, IterationRow.SERVER) * 1e3
            / m.value(IterationRow.ENTRIES)),
        Measurement.median(rows, m -> IterationRow.workCpuMs(m, IterationRow.CLIENT) * 1e3
            / (m.value(IterationRow.PAYLOAD_BYTES) / 1e6)),
        Measurement.median(rows, m -> IterationRow.workCpuMs(m, IterationRow.SERVER) * 1e3
            / (m.value(IterationRow.PAYLOAD_BYTES) / 1e6)),
        Measurement.median(rows, m -> m.value(IterationRow.CLIENT + IterationRow.GC_MS)),
        Measurement.median(rows, m -> m.value(IterationRow.SERVER + IterationRow.GC_MS)),
        Measurement.median(rows, m -> m.value(IterationRow.CLIENT + IterationRow.WRITTEN_BYTES) / 1e6),
        Measurement.median(rows, m -> m.value(IterationRow.SERVER + IterationRow.READ_BYTES) / 1e6),
        Measurement.median(rows, m -> m.value(IterationRow.PAYLOAD_BYTES) / 1e6), wall, cpu);
  }

  /** The summary's columns, in the order of the CSV and of the JSON summary objects. */
  Map<String, Object> toMap(boolean precisionMet) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode);
    m.put("server", server);
    m.put("rounds", rounds);
    m.put("median_wall_ms", wallMs);
    m.put("median_entries", entries);
    m.put("entries_per_s", entriesPerSecond);
    m.put("mb_per_s", megabytesPerSecond);
    m.put("wall_overhead_pct", wallOverhead.estimate());
    m.put("wall_overhead_low", wallOverhead.low());
    m.put("wall_overhead_high", wallOverhead.high());
    m.put("cpu_overhead_pct", cpuOverhead.estimate());
    m.put("cpu_overhead_low", cpuOverhead.low());
    m.put("cpu_overhead_high", cpuOverhead.high());
    m.put("client_cpu_us_per_entry", clientUsPerEntry);
    m.put("server_cpu_us_per_entry", serverUsPerEntry);
    m.put("client_cpu_us_per_mb", clientUsPerMb);
    m.put("server_cpu_us_per_mb", serverUsPerMb);
    m.put("client_gc_ms", clientGcMs);
    m.put("server_gc_ms", serverGcMs);
    m.put("client_wire_mb", clientWireMb);
    m.put("server_wire_mb", serverWireMb);
    m.put("payload_mb", payloadMb);
    m.put("precision_met", precisionMet);
    return m;
  }
}
