package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.FipsPeers;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code securethrift.fips=true} on the thread-pool server, both engines: approved clients served, a ChaCha20-only
 * client and a TLS 1.1 ClientHello refused, weak keys refused where the stores load and where a peer presents them.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class FipsTlsTest {
  private static Path serverStore;
  private static Path trustStore;
  private static Path weakPem;
  private static Path weakClientStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
    weakPem = ca.leaf().keyType(KeyType.RSA_1024).issue().writePem(dir, "weak", null).certificateChain();
    weakClientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("weak").keyType(KeyType.RSA_1024).issue(), dir,
        "weak-client");
  }

  @EachTlsEngine
  void servesOnlyApprovedClients(TlsEngine engine) throws Exception {
    SecurityConfig server = TlsTestConfigs.tls(engine, serverStore, trustStore).fips(true).build();
    try (ServerTransportFactory factory = ServerTransportFactory.create(server);
        EchoServer echo = EchoServer.start(factory)) {
      FipsPeers.assertServesOnlyApprovedClients(TlsTestConfigs.tls(engine, null, trustStore), echo.port());
    }
    try (ServerTransportFactory factory = ServerTransportFactory.create(server.toBuilder().fips(false).build());
        EchoServer echo = EchoServer.start(factory);
        ClientTransportFactory clients = ClientTransportFactory.create(
            FipsPeers.chaChaOnly(TlsTestConfigs.tls(engine, null, trustStore)));
        SecuredTransport transport = clients.open("localhost", echo.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 1);
      assertTrue(transport.peerIdentity().tlsCipherSuite().orElseThrow().contains("CHACHA20"));
    }
  }

  /** The engine's default suites under the profile: its supported ones among the approved, nothing else. */
  @EachTlsEngine
  void enablesOnlyApprovedSuitesByDefault(TlsEngine engine) throws Exception {
    SecurityConfig config = TlsTestConfigs.tls(engine, null, trustStore).fips(true).build();
    TlsEngineContext engines = StandardSslContextFactory.INSTANCE.engineContext(config.tls(), null, Role.CLIENT);
    List<String> expected = new ArrayList<>(Arrays.asList(engines.supportedParameters().getCipherSuites()));
    expected.retainAll(CipherSuites.FIPS);
    assertEquals(expected, Arrays.asList(TlsPolicy.parameters(engines, config.tls(), Role.CLIENT).getCipherSuites()));
    assertTrue(expected.containsAll(CipherSuites.FIPS), expected.toString());
  }

  @Test
  void anRsa1024KeyStoreIsRefusedWhenItLoadsNamingItsSetting() {
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.JSSE, null, trustStore)
        .keyStore(weakPem, StoreType.PEM, null).fips(true).build();
    ConfigException e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config).close());
    assertEquals("securethrift.tls.keystore.path", e.key());
    assertEquals("securethrift.tls.keystore.path: " + weakPem + ": the certificate CN=localhost holds a 1024-bit RSA"
        + " key, which securethrift.fips=true refuses (it admits RSA keys of 2048 bits or more and EC keys on P-256,"
        + " P-384 or P-521); replace it with a certificate of an approved key, or set securethrift.fips=false",
        e.getMessage());
    // The same store loads without the profile: the refusal is the profile's, not the JDK's.
    ServerTransportFactory.create(config.toBuilder().fips(false).build()).close();
  }

  @Test
  void aTrustStoreWithAnRsa1024CaIsRefusedNamingItsSetting(@CertificateDirectory Path dir) {
    Path weakTrust = TlsTestConfigs.trustStore(TestCertificateAuthority.create("weak CA", KeyType.RSA_1024),
        dir.resolve("weak-ca"));
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.JSSE, null, weakTrust).fips(true).build();
    ConfigException e = assertThrows(ConfigException.class, () -> ClientTransportFactory.create(config).close());
    assertEquals("securethrift.tls.truststore.path", e.key());
    assertTrue(e.getMessage().contains("the certificate CN=weak CA holds a 1024-bit RSA key"), e.getMessage());
  }

  /** The JDK's own limits accept a 1024-bit RSA client certificate; the profile's server does not. */
  @EachTlsEngine
  void aPeerCertificateWithAnRsa1024KeyIsRefused(TlsEngine engine) throws Exception {
    SecurityConfig.Builder server = TlsTestConfigs.tls(engine, serverStore, trustStore).clientAuth(ClientAuth.NEED);
    SecurityConfig client = TlsTestConfigs.tls(engine, weakClientStore, trustStore).build();
    try (ServerTransportFactory plain = ServerTransportFactory.create(server.build());
        EchoServer echo = EchoServer.start(plain);
        ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport transport = clients.open("localhost", echo.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 1);
    }
    try (ServerTransportFactory fips = ServerTransportFactory.create(server.fips(true).build());
        EchoServer echo = EchoServer.start(fips);
        ClientTransportFactory clients = ClientTransportFactory.create(client)) {
      assertThrows(Exception.class, () -> {
        try (SecuredTransport transport = clients.open("localhost", echo.port())) {
          EchoServer.client(transport).echo(ByteBuffer.allocate(1));
        }
      });
    }
  }
}
