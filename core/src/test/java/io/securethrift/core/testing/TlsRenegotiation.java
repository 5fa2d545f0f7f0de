package io.securethrift.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import javax.net.ssl.SSLSocket;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.function.Executable;

/** A client's full TLS 1.2 renegotiation on an open connection, as an attacker would start it, for server tests. */
public final class TlsRenegotiation {
  private TlsRenegotiation() {}

  /**
   * Renegotiates on {@code socket} (libthrift's TLS socket, after a first call) with a fresh session, so nothing is
   * resumed and the server would run a full handshake, then makes {@code nextCall}; fails unless one of them fails.
   */
  public static void assertRefused(TSocket socket, Executable nextCall) {
    SSLSocket tls = (SSLSocket) socket.getSocket();
    assertEquals("TLSv1.2", tls.getSession().getProtocol());
    tls.getSession().invalidate();
    assertThrows(Exception.class, () -> {
      tls.startHandshake();
      nextCall.execute();
    }, "the connection ends at the renegotiation");
  }
}
