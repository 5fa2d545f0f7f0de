package io.securethrift.bench;

import io.securethrift.core.PeerIdentity;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import java.nio.ByteBuffer;
import org.apache.thrift.TException;

/** One open connection to an {@link EchoFixture}'s server with a Thrift echo client on it. */
public final class EchoConnection implements AutoCloseable {
  private final SecuredTransport transport;
  private final EchoService.Client client;

  EchoConnection(SecuredTransport transport) {
    this.transport = transport;
    this.client = EchoServer.client(transport);
  }

  /**
   * Sends {@code payload} and returns the echoed bytes. The payload's position is left unchanged, so one buffer
   * serves every call of a benchmark.
   */
  public ByteBuffer echo(ByteBuffer payload) throws TException {
    return client.echo(payload.duplicate());
  }

  /** How the connection was secured, as the client sees it. */
  public PeerIdentity peerIdentity() {
    return transport.peerIdentity();
  }

  @Override
  public void close() {
    transport.close();
  }
}
