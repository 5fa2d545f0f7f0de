package io.securethrift.core.transport;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.Timeouts;
import io.securethrift.core.internal.Durations;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.ReconnectForFallback;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import org.apache.thrift.transport.TTransportException;

/**
 * Opens secured client connections for one {@link SecurityConfig}. Thread-safe; make one per configuration and reuse
 * it, since it holds the TLS context (with its session cache) and the Kerberos login.
 *
 * <pre>{@code
 * try (ClientTransportFactory factory = ClientTransportFactory.create(config);
 *      SecuredTransport transport = factory.open("tserver.example.com", 9997)) {
 *   MyService.Client client = new MyService.Client(transport.protocol(new TCompactProtocol.Factory()));
 *   ...
 * }
 * }</pre>
 */
public final class ClientTransportFactory implements AutoCloseable {
  private final Layers layers;

  private ClientTransportFactory(Layers layers) {
    this.layers = layers;
  }

  /** Checks the client-side settings of {@code config} and prepares its layers. */
  public static ClientTransportFactory create(SecurityConfig config) {
    return new ClientTransportFactory(Layers.resolve(config, Role.CLIENT));
  }

  public SecurityConfig config() {
    return layers.config();
  }

  /**
   * Connects to {@code host:port} within the connect timeout, completes the handshake within the handshake timeout,
   * and returns an open transport ready for a Thrift protocol. With {@code securethrift.client.connection.max.age}
   * set, the transport replaces its connection by a new one at the first call after that age, before the call's
   * first byte is sent; a call is never sent twice. A Kerberos connection is replaced the same way shortly before
   * the service ticket it authenticated with ends, when its server would close it.
   */
  public SecuredTransport open(String host, int port) throws TTransportException {
    Duration maxAge = layers.config().timeouts().clientConnectionMaxAge();
    RenewingTransport.Connector connector = () -> openOnce(host, port);
    long openedNanos = System.nanoTime();
    Instant opened = Instant.now();
    SecuredTransport first = connector.open();
    return maxAge.isZero() && RenewingTransport.ticketEnd(first) == null ? first
        : new RenewingTransport(connector, first, openedNanos, opened, maxAge);
  }

  private SecuredTransport openOnce(String host, int port) throws TTransportException {
    try {
      return connect(host, port);
    } catch (ReconnectForFallback e) {
      // The layer has recorded that this peer needs the fallback; once is enough, so a second one propagates.
      return connect(host, port);
    }
  }

  private SecuredTransport connect(String host, int port) throws TTransportException {
    String peer = host + ":" + port;
    Timeouts timeouts = layers.config().timeouts();
    Socket socket = new Socket();
    try {
      if (layers.config().mode().usesTls()) {
        // The TLS handshake runs before the transport that would set these exists. Without TLS the transport made
        // over this very socket sets them (TSocket's constructor), before the first byte goes out.
        Layers.tune(socket);
      }
      socket.connect(new InetSocketAddress(host, port),
          (int) Math.min(Integer.MAX_VALUE, timeouts.connect().toMillis()));
    } catch (IOException e) {
      Layers.closeQuietly(socket);
      throw new TTransportException(TTransportException.NOT_OPEN, "cannot connect to " + peer + " within "
          + Durations.format(timeouts.connect()) + " (" + ConfigProperty.TIMEOUT_CONNECT.key() + "): "
          + e.getMessage(), e);
    }
    return layers.handshake(socket, host, peer);
  }

  @Override
  public void close() {
    layers.close();
  }
}
