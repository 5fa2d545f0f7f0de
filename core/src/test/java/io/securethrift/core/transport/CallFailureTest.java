package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testservice.EchoServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * A call that fails after the handshake names the peer ({@code host:port}) and why, over real loopback sockets whose
 * server end misbehaves: silent, closing, resetting. The exception type is libthrift's, so callers can still tell a
 * timeout from a closed connection.
 */
class CallFailureTest {
  private static final SecurityConfig CONFIG = SecurityConfig.builder().readTimeout(Duration.ofMillis(300)).build();

  /** What the client sees when the server accepts and then does {@code serverSide} to the connection. */
  private static TTransportException failedCall(ServerEnd serverSide) throws Exception {
    try (ServerSocket listener = new ServerSocket();
        ClientTransportFactory factory = ClientTransportFactory.create(CONFIG)) {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (SecuredTransport transport = factory.open("127.0.0.1", listener.getLocalPort());
          Socket accepted = listener.accept()) {
        serverSide.apply(accepted);
        var client = EchoServer.client(transport);
        TTransportException e = assertThrows(TTransportException.class, client::whoAmI);
        String peer = "127.0.0.1:" + listener.getLocalPort();
        assertTrue(e.getMessage().matches("(reading from|writing to) " + peer.replace(".", "\\.") + " failed: .+"),
            e.getMessage());
        return e;
      }
    }
  }

  @FunctionalInterface
  private interface ServerEnd {
    void apply(Socket accepted) throws IOException;
  }

  @Test
  void silentServerIsATimeoutNamingTheSetting() throws Exception {
    TTransportException e = failedCall(accepted -> { });
    assertEquals(TTransportException.TIMED_OUT, e.getType());
    assertTrue(e.getMessage().endsWith(" failed: timed out: nothing received within 300ms (securethrift.timeout.read)"),
        e.getMessage());
    assertTrue(e.getCause() instanceof java.net.SocketTimeoutException, String.valueOf(e.getCause()));
  }

  @Test
  void serverThatClosesIsAClosedConnection() throws Exception {
    TTransportException e = failedCall(Socket::close);
    assertEquals(TTransportException.END_OF_FILE, e.getType());
    assertTrue(e.getMessage().startsWith("reading from 127.0.0.1:"), e.getMessage());
    assertTrue(e.getMessage().endsWith(" failed: connection closed by the peer"), e.getMessage());
    // The message names the peer; the stack is the cause's, libthrift's own end of file where the read found it.
    assertEquals(0, e.getStackTrace().length, "the naming wrapper fills no stack trace of its own");
    assertTrue(e.getCause() instanceof TTransportException, String.valueOf(e.getCause()));
    assertTrue(e.getCause().getStackTrace().length > 0, "the cause keeps the trace of the failed read");
  }

  @Test
  void serverThatResetsIsAReset() throws Exception {
    TTransportException e = failedCall(accepted -> {
      // Linger 0: close sends a TCP RST instead of a FIN, as a crashed or firewalled peer does.
      accepted.setSoLinger(true, 0);
      accepted.close();
    });
    // The RST arrives either before the request is written (write fails) or before the reply is read.
    assertTrue(e.getMessage().endsWith(" failed: connection reset by the peer")
        || e.getMessage().endsWith(" failed: connection closed by the peer (broken pipe)"), e.getMessage());
  }
}
