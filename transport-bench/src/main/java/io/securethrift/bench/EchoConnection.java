package io.securethrift.bench;

import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.SecuredTransport;
import java.nio.ByteBuffer;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransport;

/**
 * One open connection to an echo server with a Thrift echo client on it: securethrift's ({@link EchoFixture}), or an
 * unmodified libthrift transport's, which has no {@link PeerIdentity}.
 */
public final class EchoConnection implements AutoCloseable {
  private final TTransport transport;
  private final PeerIdentity identity;
  private final EchoService.Client client;

  EchoConnection(SecuredTransport transport) {
    this(transport, transport.peerIdentity());
  }

  private EchoConnection(TTransport transport, PeerIdentity identity) {
    this.transport = transport;
    this.identity = identity;
    this.client = EchoServer.client(transport);
  }

  /** A connection over an open libthrift transport. */
  public static EchoConnection over(TTransport transport) {
    return new EchoConnection(transport, null);
  }

  /**
   * Sends {@code payload} and returns the echoed bytes. The payload's position is left unchanged, so one buffer
   * serves every call of a benchmark.
   */
  public ByteBuffer echo(ByteBuffer payload) throws TException {
    return client.echo(payload.duplicate());
  }

  /** How the connection was secured, as the client sees it; only for securethrift's transports. */
  public PeerIdentity peerIdentity() {
    if (identity == null) {
      throw new IllegalStateException("a libthrift transport has no PeerIdentity");
    }
    return identity;
  }

  @Override
  public void close() {
    transport.close();
  }
}
