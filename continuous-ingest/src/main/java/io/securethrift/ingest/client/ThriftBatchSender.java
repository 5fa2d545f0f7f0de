package io.securethrift.ingest.client;

import io.securethrift.core.ClientTransportFactory;
import io.securethrift.core.SecuredTransport;
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
import org.apache.thrift.protocol.TCompactProtocol;

/**
 * Sends each batch as one {@code applyBatch} call. Connections are pooled, one per concurrently sending thread, as
 * Accumulo's batch writer keeps a connection per tablet server and thread; a connection that fails is closed, never
 * reused. Thread-safe.
 */
public final class ThriftBatchSender implements BatchSender, AutoCloseable {
  private final ClientTransportFactory factory;
  private final String host;
  private final int port;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  public ThriftBatchSender(ClientTransportFactory factory, String host, int port) {
    this.factory = factory;
    this.host = host;
    this.port = port;
  }

  @Override
  public void send(List<Entry> batch) throws IOException {
    List<KeyValue> updates = new ArrayList<>(batch.size());
    for (Entry e : batch) {
      updates.add(KeyValues.toKeyValue(e));
    }
    call(client -> client.applyBatch(updates));
  }

  /** Asks the server to make everything applied so far durable. */
  public void flushServer() throws IOException {
    call(client -> {
      client.flush();
      return 0;
    });
  }

  private void call(Call call) throws IOException {
    Connection connection = idle.pollFirst();
    try {
      if (connection == null) {
        connection = new Connection(factory.open(host, port));
      }
      call.on(connection.client);
      idle.addFirst(connection);
    } catch (TException e) {
      if (connection != null) {
        connection.transport.close();
      }
      throw new IOException("ingest call to " + host + ":" + port + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    for (Connection c = idle.poll(); c != null; c = idle.poll()) {
      c.transport.close();
    }
  }

  @FunctionalInterface
  private interface Call {
    int on(IngestService.Client client) throws TException;
  }

  private static final class Connection {
    final SecuredTransport transport;
    final IngestService.Client client;

    Connection(SecuredTransport transport) {
      this.transport = transport;
      this.client = new IngestService.Client(transport.protocol(new TCompactProtocol.Factory()));
    }
  }
}
