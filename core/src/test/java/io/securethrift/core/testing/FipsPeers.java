package io.securethrift.core.testing;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The clients a server under the FIPS profile ({@code securethrift.fips=true}) must serve and refuse, on whatever
 * server model and engine it runs: a FIPS client, a client offering only ChaCha20-Poly1305 suites, and a TLS 1.1
 * ClientHello written byte by byte (no engine of this JVM offers TLS 1.1 any more, so none can be asked to).
 */
public final class FipsPeers {
  /** TLS_ECDHE_{ECDSA,RSA}_WITH_CHACHA20_POLY1305_SHA256: AEAD with ECDHE, in securethrift's rule, not approved. */
  private static final List<String> CHACHA12 = List.of("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
  private static final int HANDSHAKE_RECORD = 0x16;

  private FipsPeers() {}

  /**
   * Runs the three clients against the server on {@code port}; {@code client} carries the engine, trust store and
   * timeouts the clients use.
   */
  public static void assertServesOnlyApprovedClients(SecurityConfig.Builder client, int port) throws Exception {
    try (ClientTransportFactory fips = ClientTransportFactory.create(client.fips(true).build());
        SecuredTransport transport = fips.open("localhost", port)) {
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 100_000);
      String suite = transport.peerIdentity().tlsCipherSuite().orElseThrow();
      assertTrue(CipherSuites.isFipsApproved(suite), suite);
    }
    try (ClientTransportFactory refused = ClientTransportFactory.create(chaChaOnly(client))) {
      assertThrows(Exception.class, () -> {
        try (SecuredTransport transport = refused.open("localhost", port)) {
          EchoServer.client(transport).echo(ByteBuffer.allocate(1));
        }
      }, "a client offering only ChaCha20-Poly1305 is refused");
    }
    assertNotEquals(HANDSHAKE_RECORD, tls11Reply(port), "a TLS 1.1 ClientHello gets no ServerHello");
  }

  /**
   * A client offering only ChaCha20-Poly1305 suites on TLS 1.2, which a server without the profile serves: so a
   * refusal by a FIPS server is the profile's.
   */
  public static SecurityConfig chaChaOnly(SecurityConfig.Builder client) {
    return client.fips(false).tlsProtocols(List.of("TLSv1.2")).tlsCipherSuites(CHACHA12).build();
  }

  /**
   * Sends a TLS 1.1 ClientHello (ECDHE-RSA with AES-CBC-SHA, P-256) and returns the first byte of the reply: 0x15 for
   * an alert, -1 when the server closed or reset the connection, 0x16 if it went on with a handshake.
   */
  static int tls11Reply(int port) throws Exception {
    byte[] suites = {(byte) 0xc0, 0x13, (byte) 0xc0, 0x14};
    byte[] extensions = {0x00, 0x0a, 0x00, 0x04, 0x00, 0x02, 0x00, 0x17, // supported_groups: secp256r1
        0x00, 0x0b, 0x00, 0x02, 0x01, 0x00}; // ec_point_formats: uncompressed
    ByteBuffer hello = ByteBuffer.allocate(2 + 32 + 1 + 2 + suites.length + 2 + 2 + extensions.length);
    hello.put((byte) 3).put((byte) 2).put(new byte[32]).put((byte) 0);
    hello.putShort((short) suites.length).put(suites).put((byte) 1).put((byte) 0);
    hello.putShort((short) extensions.length).put(extensions);
    int body = hello.position();
    ByteBuffer record = ByteBuffer.allocate(5 + 4 + body);
    record.put((byte) HANDSHAKE_RECORD).put((byte) 3).put((byte) 1).putShort((short) (4 + body));
    record.put((byte) 1).put((byte) 0).putShort((short) body).put(hello.array(), 0, body);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(record.array());
      out.flush();
      InputStream in = socket.getInputStream();
      return in.read();
    } catch (SocketException reset) {
      return -1; // the server reset the connection: refused as well
    }
  }
}
