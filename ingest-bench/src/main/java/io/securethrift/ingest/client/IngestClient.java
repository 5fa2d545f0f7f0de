package io.securethrift.ingest.client;

import io.securethrift.core.SecurityConfig;
import io.securethrift.ingest.KeyValues;
import io.securethrift.ingest.thrift.IngestService;
import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.thrift.ScanPage;
import io.securethrift.ingest.workload.BatchWriter;
import io.securethrift.ingest.workload.ContinuousIngestGenerator;
import io.securethrift.ingest.workload.ContinuousVerifier;
import io.securethrift.ingest.workload.Entry;
import io.securethrift.ingest.workload.EntrySink;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;

/** Runs the continuous-ingest workload against an ingest server, verifies its table and resets it. */
public final class IngestClient implements AutoCloseable {
  private static final int SCAN_PAGE = 10_000;

  private final Connector connector;
  private final String host;
  private final int port;
  private final RetryPolicy retryPolicy;
  private final RetryCounters retryCounters = new RetryCounters();
  private final Retrying retrying;

  /**
   * Prepares connections to {@code host:port} secured as {@code config} says, retrying failed calls as
   * {@link RetryPolicy#DEFAULT} says; nothing connects until a call.
   */
  public IngestClient(SecurityConfig config, String host, int port) {
    this(config, host, port, RetryPolicy.DEFAULT);
  }

  /** Prepares connections to {@code host:port}, retrying failed calls as {@code retryPolicy} says. */
  public IngestClient(SecurityConfig config, String host, int port, RetryPolicy retryPolicy) {
    this(Connector.of(config), host, port, retryPolicy);
  }

  /** Prepares connections to {@code host:port} opened by {@code connector}, which this client closes. */
  public IngestClient(Connector connector, String host, int port, RetryPolicy retryPolicy) {
    this.connector = connector;
    this.host = host;
    this.port = port;
    this.retryPolicy = retryPolicy;
    this.retrying = new Retrying(retryPolicy, retryCounters, host + ":" + port);
  }

  /** The retries, reconnects and time lost of every call this client made so far. */
  public RetryCounters.Snapshot retries() {
    return retryCounters.snapshot();
  }

  /**
   * Writes the workload through a batch writer and measures it; connections are opened inside the timed part. The
   * bytes are the entries' key and value bytes, counted as written.
   */
  public IngestResult ingest(IngestOptions options) throws IOException {
    return ingest(options, written -> { });
  }

  /**
   * {@link #ingest(IngestOptions)}, calling {@code afterFlush} once every flush has returned, that is once the server
   * has acknowledged every entry written so far: the benchmark uses it to let another client take a turn.
   */
  public IngestResult ingest(IngestOptions options, FlushListener afterFlush) throws IOException {
    ContinuousIngestGenerator generator = ContinuousIngestGenerator.builder()
        .seed(options.seed()).flushInterval(options.flushInterval()).build();
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    long written;
    long[] bytes = {0};
    try (ThriftBatchSender sender = new ThriftBatchSender(connector, host, port, retryPolicy, retryCounters);
        BatchWriter writer = new BatchWriter(sender, options.batchMemory(), options.maxLatency(),
            options.writeThreads())) {
      EntrySink sink = new EntrySink() {
        @Override
        public void add(Entry entry) throws IOException {
          bytes[0] += entry.keyValueBytes();
          writer.add(entry);
        }

        @Override
        public void flush() throws IOException {
          writer.flush();
          sender.flushServer();
          afterFlush.flushed(generator.entriesWritten());
        }
      };
      written = options.timeBased() ? generator.generateFor(options.duration(), sink)
          : generator.generate(options.entries(), sink);
    }
    long elapsed = System.nanoTime() - start;
    return new IngestResult(written, bytes[0], elapsed, processCpuNanos() - cpuBefore);
  }

  /** The server process's CPU time so far, as it reports it. */
  public long serverCpuNanos() throws IOException {
    return withService(IngestService.Client::stats).cpuNanos;
  }

  /**
   * Scans the whole table back and applies the continuous-ingest verify rules. A failed scan starts over on a new
   * connection with a fresh verifier, so no page is counted twice.
   */
  public VerifyResult verify() throws IOException {
    return withService(client -> {
      ContinuousVerifier verifier = new ContinuousVerifier();
      KeyValue after = null;
      ScanPage page;
      do {
        page = client.scan(after, SCAN_PAGE);
        for (KeyValue kv : page.entries) {
          verifier.add(KeyValues.toEntry(kv));
          after = kv;
        }
      } while (page.more);
      return verifier.result();
    });
  }

  /** Empties the server's table, for a fresh start. */
  public void reset() throws IOException {
    withService(client -> {
      client.reset();
      return null;
    });
  }

  /** Runs {@code call} on a connection of its own, retried on a new one as the retry policy says. */
  private <T> T withService(ServiceCall<T> call) throws IOException {
    return retrying.call("ingest service call", retry -> {
      TProtocol protocol = connector.open(host, port);
      try {
        if (retry) {
          retryCounters.reconnected();
        }
        return call.on(new IngestService.Client(protocol));
      } finally {
        protocol.getTransport().close();
      }
    });
  }

  /** Told of every flush the server acknowledged. */
  @FunctionalInterface
  public interface FlushListener {
    /**
     * Called on the ingesting thread after a flush returned, before the next entry is generated.
     *
     * @param entriesWritten entries this ingest has written so far, every one of them acknowledged
     */
    void flushed(long entriesWritten) throws IOException;
  }

  @FunctionalInterface
  private interface ServiceCall<T> {
    T on(IngestService.Client client) throws TException;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public void close() {
    connector.close();
  }
}
