package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two configurations in one JVM, each with its own context factory, serve at the same time without mixing them. */
@ExtendWith(CertificateAuthorityExtension.class)
class SslContextFactoryPerConfigTest {
  /** Delegates to the standard factory, counts its contexts, and optionally pins the protocol. */
  private static final class Pinning implements SslContextFactory {
    final AtomicInteger contexts = new AtomicInteger();
    private final String protocol;

    Pinning(String protocol) {
      this.protocol = protocol;
    }

    @Override
    public SSLContext createContext(TlsSettings settings, Role role) throws IOException, GeneralSecurityException {
      contexts.incrementAndGet();
      return StandardSslContextFactory.INSTANCE.createContext(settings, role);
    }

    @Override
    public SSLParameters parameters(SSLContext context, TlsSettings settings, Role role) {
      SSLParameters parameters = StandardSslContextFactory.INSTANCE.parameters(context, settings, role);
      if (protocol != null) {
        parameters.setProtocols(new String[] {protocol});
      }
      return parameters;
    }
  }

  @Test
  void eachConfigurationUsesItsOwnFactory(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    Path trustStore = TlsTestConfigs.trustStore(ca, dir);
    Pinning modern = new Pinning(null);
    Pinning legacy = new Pinning("TLSv1.2");
    SecurityConfig base = TlsTestConfigs.tls(TlsEngine.JSSE, serverStore, trustStore).build();
    try (ServerTransportFactory first = ServerTransportFactory.create(base.toBuilder().sslContextFactory(modern)
            .build());
         ServerTransportFactory second = ServerTransportFactory.create(base.toBuilder().sslContextFactory(legacy)
            .build());
         ClientTransportFactory client = ClientTransportFactory.create(base)) {
      EchoServer one = EchoServer.start(first);
      EchoServer two = EchoServer.start(second);
      try {
        assertEquals("TLSv1.3", negotiated(client, one));
        assertEquals("TLSv1.2", negotiated(client, two));
        assertEquals("TLSv1.3", negotiated(client, one));
      } finally {
        one.close();
        two.close();
      }
    }
    assertEquals(1, modern.contexts.get());
    assertEquals(1, legacy.contexts.get());
  }

  private static String negotiated(ClientTransportFactory client, EchoServer server) throws Exception {
    try (SecuredTransport transport = client.open("localhost", server.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 16);
      return transport.peerIdentity().tlsProtocol().orElseThrow();
    }
  }
}
