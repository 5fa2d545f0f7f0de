package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.time.Duration;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * What {@link ServerTransportFactory#listen} accepts: the transport a connection without TLS goes on reading through,
 * with the socket options libthrift's accepted sockets get.
 */
class ListeningSocketTest {
  private static final SecurityConfig CONFIG = SecurityConfig.builder().readTimeout(Duration.ofSeconds(30)).build();

  @Test
  void acceptedConnectionsAreTheTransportThePlainHandshakeContinuesOn() throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(CONFIG)) {
      TServerSocket listening = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      try (Socket client = new Socket("127.0.0.1", ServerTransportFactory.port(listening))) {
        TTransport accepted = listening.accept();
        SocketTransport socket = assertInstanceOf(SocketTransport.class, accepted);
        assertTrue(socket.getSocket().getTcpNoDelay());
        assertTrue(socket.getSocket().getKeepAlive());
        SocketAddress clientAddress = client.getLocalSocketAddress();
        TTransport secured = factory.transportFactory().getTransport(accepted);
        assertEquals(clientAddress, ((SecuredTransport) secured).peerIdentity().remoteAddress());
        // The handshake named the peer on the accepted transport, so that is the one the connection reads through.
        client.close();
        TTransportException e = assertThrows(TTransportException.class, () -> accepted.read(new byte[1], 0, 1));
        assertEquals("reading from " + clientAddress + " failed: connection closed by the peer",
            e.getMessage());
        secured.close();
        assertFalse(accepted.isOpen());
      } finally {
        listening.close();
      }
    }
  }

  @Test
  void acceptAfterCloseSaysTheSocketIsClosed() throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(CONFIG)) {
      TServerSocket listening = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      listening.close();
      TTransportException e = assertThrows(TTransportException.class, listening::accept);
      assertEquals(TTransportException.NOT_OPEN, e.getType());
    }
  }
}
