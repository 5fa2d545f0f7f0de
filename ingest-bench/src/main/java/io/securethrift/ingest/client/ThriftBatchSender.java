package io.securethrift.ingest.client;

import io.securethrift.ingest.KeyValues;
import io.securethrift.ingest.thrift.IngestService;
import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.workload.BatchSender;
import io.securethrift.ingest.workload.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Sends each batch as one {@code applyBatch} call. Connections are pooled, one per concurrently sending thread, as
 * Accumulo's batch writer keeps a connection per tablet server and thread; a connection that fails is closed, never
 * reused, and so are the idle ones (a restarted server has dropped them all). A call whose connection failed is
 * retried on a new connection as the {@link RetryPolicy} says; {@link #send} returns only once the server has
 * acknowledged the batch. Thread-safe.
 */
public final class ThriftBatchSender implements BatchSender, AutoCloseable {
  private final Connector connector;
  private final String host;
  private final int port;
  private final Retrying retrying;
  private final RetryCounters counters;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  /** A sender that does not retry. */
  public ThriftBatchSender(Connector connector, String host, int port) {
    this(connector, host, port, RetryPolicy.NONE, new RetryCounters());
  }

  /** A sender that retries as {@code policy} says and counts what that cost in {@code counters}. */
  public ThriftBatchSender(Connector connector, String host, int port, RetryPolicy policy,
      RetryCounters counters) {
    this.connector = connector;
    this.host = host;
    this.port = port;
    this.counters = counters;
    this.retrying = new Retrying(policy, counters, host + ":" + port);
  }

  /**
   * Sends the batch, resending it on a new connection if the call failed. Resending is safe because continuous-ingest
   * writes are idempotent: a batch whose acknowledgement was lost may have been applied, and applying it again
   * rewrites the same keys with the same values, which the verifier cannot tell from one write.
   */
  @Override
  public void send(List<Entry> batch) throws IOException {
    List<KeyValue> updates = new ArrayList<>(batch.size());
    for (Entry e : batch) {
      updates.add(KeyValues.toKeyValue(e));
    }
    call("applyBatch of " + updates.size() + " entries", client -> client.applyBatch(updates));
  }

  /** Asks the server to make everything applied so far durable; repeating a flush is harmless. */
  public void flushServer() throws IOException {
    call("flush", client -> {
      client.flush();
      return 0;
    });
  }

  private void call(String what, Call call) throws IOException {
    retrying.call(what, retry -> {
      Connection connection = retry ? null : idle.pollFirst();
      try {
        if (connection == null) {
          connection = new Connection(connector.open(host, port));
          if (retry) {
            counters.reconnected();
          }
        }
        int result = call.on(connection.client);
        idle.addFirst(connection);
        return result;
      } catch (TTransportException e) {
        if (connection != null) {
          connection.transport.close();
        }
        // The failure is likely the server's (restarted, unreachable), so the idle connections are suspect too.
        closeIdle();
        throw e;
      } catch (TException | RuntimeException e) {
        if (connection != null) {
          connection.transport.close();
        }
        throw e;
      }
    });
  }

  private void closeIdle() {
    for (Connection c = idle.poll(); c != null; c = idle.poll()) {
      c.transport.close();
    }
  }

  @Override
  public void close() {
    closeIdle();
  }

  @FunctionalInterface
  private interface Call {
    int on(IngestService.Client client) throws TException;
  }

  private static final class Connection {
    final TTransport transport;
    final IngestService.Client client;

    Connection(TProtocol protocol) {
      this.transport = protocol.getTransport();
      this.client = new IngestService.Client(protocol);
    }
  }
}
