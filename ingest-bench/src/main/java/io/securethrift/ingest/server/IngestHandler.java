package io.securethrift.ingest.server;

import io.securethrift.ingest.KeyValues;
import io.securethrift.ingest.thrift.IngestFailure;
import io.securethrift.ingest.thrift.IngestService;
import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.thrift.ScanPage;
import io.securethrift.ingest.thrift.ServerStats;
import io.securethrift.ingest.workload.ContinuousVerifier;
import io.securethrift.ingest.workload.Entry;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** The ingest service: applies batches to the table (and the log, if any), scans, resets, reports its cost. */
final class IngestHandler implements IngestService.Iface {
  /** Largest page a scan returns, whatever the client asks, so a page always fits in a frame. */
  static final int MAX_PAGE = 10_000;

  private final SortedTable table = new SortedTable();
  private final WriteAheadLog log;

  IngestHandler(WriteAheadLog log) {
    this.log = log;
  }

  @Override
  public int applyBatch(List<KeyValue> batch) throws IngestFailure {
    List<Entry> entries = new ArrayList<>(batch.size());
    for (KeyValue kv : batch) {
      entries.add(KeyValues.toEntry(kv));
    }
    if (log != null) {
      try {
        log.append(entries);
      } catch (IOException e) {
        throw new IngestFailure("write-ahead log append failed: " + e.getMessage());
      }
    }
    table.append(entries);
    return entries.size();
  }

  /** Replays the write-ahead log, if any, into the table: what a restarted server held when it was stopped. */
  void replay() throws IOException {
    if (log != null) {
      log.replay(table::append);
    }
  }

  @Override
  public void flush() throws IngestFailure {
    if (log != null) {
      try {
        log.sync();
      } catch (IOException e) {
        throw new IngestFailure("write-ahead log sync failed: " + e.getMessage());
      }
    }
  }

  @Override
  public ScanPage scan(KeyValue after, int maxEntries) throws IngestFailure {
    if (maxEntries < 1) {
      throw new IngestFailure("maxEntries must be at least 1, was " + maxEntries);
    }
    Entry start = after == null || after.row == null || !after.row.hasRemaining() ? null : KeyValues.toEntry(after);
    List<Entry> page = table.after(start, Math.min(maxEntries, MAX_PAGE));
    List<KeyValue> out = new ArrayList<>(page.size());
    for (Entry e : page) {
      out.add(KeyValues.toKeyValue(e));
    }
    return new ScanPage(out, page.size() == Math.min(maxEntries, MAX_PAGE));
  }

  @Override
  public void reset() throws IngestFailure {
    table.clear();
    if (log != null) {
      try {
        log.truncate();
      } catch (IOException e) {
        throw new IngestFailure("write-ahead log truncate failed: " + e.getMessage());
      }
    }
  }

  /**
   * Applies the continuous-ingest verify rules to every entry held, in this process: the benchmark's check that
   * nothing acknowledged was lost or damaged on the way in, without a scan back through the security layer (which
   * would cost more than the ingest it checks and is not what the benchmark measures).
   */
  VerifyResult verify() {
    ContinuousVerifier verifier = new ContinuousVerifier();
    table.forEachHeld(verifier::add);
    return verifier.result();
  }

  /** Entries received since the last reset, rewrites of a key included: what the client wrote, if none was lost. */
  long received() {
    return table.received();
  }

  @Override
  public ServerStats stats() {
    long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
    return new ServerStats(table.size(), cpu, table.bytes());
  }
}
