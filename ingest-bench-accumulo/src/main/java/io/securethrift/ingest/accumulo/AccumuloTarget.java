package io.securethrift.ingest.accumulo;

import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.bench.IngestBackend;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.ContinuousIngestGenerator;
import io.securethrift.ingest.workload.ContinuousVerifier;
import io.securethrift.ingest.workload.Entry;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.accumulo.core.client.AccumuloClient;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/**
 * One security level's Accumulo instance seen through Accumulo's own client: every iteration writes into a fresh
 * table (dropping the previous one), so no deleted data lingers in the tablet server's memory or files.
 */
final class AccumuloTarget implements IngestBackend.Target {
  private final String tablePrefix;
  private final AccumuloClient client;
  private final Supplier<ProcessSample> server;
  private final List<AutoCloseable> resources;
  private String table;
  private int generation;

  /**
   * @param tablePrefix tables are named this plus a generation number
   * @param server the tablet server's use so far, or {@link ProcessSample#unknown()} when it cannot be read
   * @param resources closed after the client, in order
   */
  AccumuloTarget(String tablePrefix, AccumuloClient client, Supplier<ProcessSample> server,
      List<AutoCloseable> resources) {
    this.tablePrefix = tablePrefix;
    this.client = client;
    this.server = server;
    this.resources = List.copyOf(resources);
  }

  @Override
  public void reset() throws IOException {
    try {
      if (table != null) {
        client.tableOperations().delete(table);
      }
      table = tablePrefix + ++generation;
      client.tableOperations().create(table);
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException | TableExistsException e) {
      throw new IOException("cannot replace table " + table + ": " + e.getMessage(), e);
    }
  }

  @Override
  public IngestResult ingest(IngestOptions options) throws IOException {
    return write(client, table, options, Optional.empty(), MutationSink.Watcher.NONE);
  }

  /**
   * Writes {@code options}' workload into {@code table} through Accumulo's {@link BatchWriter}, which retries on its
   * own when a tablet server fails, and measures it.
   *
   * @param timeout how long the writer keeps retrying a server that does not answer before it fails (Accumulo's
   *     default when empty: for ever)
   */
  static IngestResult write(AccumuloClient client, String table, IngestOptions options, Optional<Duration> timeout,
      MutationSink.Watcher watcher) throws IOException {
    ContinuousIngestGenerator generator = ContinuousIngestGenerator.builder().seed(options.seed())
        .flushInterval(options.flushInterval()).build();
    BatchWriterConfig config = new BatchWriterConfig().setMaxMemory(options.batchMemory())
        .setMaxLatency(options.maxLatency().toMillis(), TimeUnit.MILLISECONDS)
        .setMaxWriteThreads(options.writeThreads());
    timeout.ifPresent(t -> config.setTimeout(t.toMillis(), TimeUnit.MILLISECONDS));
    long clientBefore = ProcessSample.self().cpuNanos();
    long start = System.nanoTime();
    long written;
    MutationSink sink;
    try (BatchWriter writer = client.createBatchWriter(table, config)) {
      sink = new MutationSink(writer, watcher);
      written = options.timeBased() ? generator.generateFor(options.duration(), sink)
          : generator.generate(options.entries(), sink);
    } catch (TableNotFoundException e) {
      throw new IOException("table " + table + " vanished: " + e.getMessage(), e);
    } catch (MutationsRejectedException e) {
      throw MutationSink.rejected(e);
    }
    long elapsed = System.nanoTime() - start;
    return new IngestResult(written, sink.bytes(), elapsed, ProcessSample.self().cpuNanos() - clientBefore);
  }

  /** The client is this JVM (Accumulo's client library runs in the harness); the server is the tablet server. */
  @Override
  public TargetSample sample() {
    return new TargetSample(ProcessSample.self(), server.get());
  }

  @Override
  public VerifyResult verify() throws IOException {
    ContinuousVerifier verifier = new ContinuousVerifier();
    scan(client, table, Optional.empty(), verifier::add);
    return verifier.result();
  }

  /**
   * Hands every entry of {@code table} to {@code each}, in key order, through Accumulo's {@link Scanner}.
   *
   * @param timeout how long the scanner keeps retrying a server that does not answer (for ever when empty)
   */
  static void scan(AccumuloClient client, String table, Optional<Duration> timeout, Consumer<Entry> each)
      throws IOException {
    try (Scanner scanner = client.createScanner(table, Authorizations.EMPTY)) {
      timeout.ifPresent(t -> scanner.setTimeout(t.toMillis(), TimeUnit.MILLISECONDS));
      for (Map.Entry<Key, Value> kv : scanner) {
        Key k = kv.getKey();
        each.accept(new Entry(k.getRowData().toArray(), k.getColumnFamilyData().toArray(),
            k.getColumnQualifierData().toArray(), k.getColumnVisibilityData().toArray(), kv.getValue().get()));
      }
    } catch (TableNotFoundException e) {
      throw new IOException("table " + table + " vanished: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    client.close();
    closeAll(resources);
  }

  /** Closes every resource in order, even when one fails, so that no cluster outlives the run. */
  static void closeAll(List<AutoCloseable> resources) {
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception ignored) {
        // Each resource stops its own processes; one failing must not keep the others running.
      }
    }
  }
}
