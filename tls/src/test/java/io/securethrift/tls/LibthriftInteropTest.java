package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Wire compatibility with libthrift's own TLS, as Accumulo's ssl mode uses it: a {@code TSSLTransportFactory} socket
 * with {@code TFramedTransport} on top, in both directions and with client certificates.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class LibthriftInteropTest {
  private static final ByteBuffer PAYLOAD = ByteBuffer.wrap(new byte[70_000]);
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    clientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "client");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  private static TSSLTransportFactory.TSSLTransportParameters libthriftParameters(Path keyStore) {
    TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters();
    params.setKeyStore(keyStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
    params.setTrustStore(trustStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
    params.requireClientAuth(true);
    return params;
  }

  @EachTlsEngine
  void ourClientTalksToLibthriftsSslServer(TlsEngine engine) throws Exception {
    TServerSocket socket = TSSLTransportFactory.getServerSocket(0, 20_000, InetAddress.getLoopbackAddress(),
        libthriftParameters(serverStore));
    EchoServer server = EchoServer.start(new TThreadPoolServer.Args(socket).processor(EchoServer.processor())
        .transportFactory(new TFramedTransport.Factory()), EchoServer.portOf(socket));
    try (ClientTransportFactory factory = ClientTransportFactory.create(
            TlsTestConfigs.tls(engine, clientStore, trustStore).build());
         SecuredTransport transport = factory.open("localhost", server.port())) {
      assertEquals(PAYLOAD, EchoServer.client(transport).echo(PAYLOAD.duplicate()));
      assertEquals("localhost", transport.peerIdentity().principal().orElseThrow());
    } finally {
      server.close();
    }
  }

  @EachTlsEngine
  void libthriftsSslClientTalksToOurServer(TlsEngine engine) throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(
        TlsTestConfigs.tls(engine, serverStore, trustStore).clientAuth(io.securethrift.core.ClientAuth.NEED).build())) {
      EchoServer server = EchoServer.start(factory);
      TSocket socket = TSSLTransportFactory.getClientSocket("localhost", server.port(), 20_000,
          libthriftParameters(clientStore));
      try (TFramedTransport framed = new TFramedTransport(socket)) {
        var client = EchoServer.client(framed);
        assertEquals(PAYLOAD, client.echo(PAYLOAD.duplicate()));
        String seen = client.whoAmI();
        assertEquals(true, seen.contains("principal=alice "), seen);
      } finally {
        server.close();
      }
    }
  }
}
