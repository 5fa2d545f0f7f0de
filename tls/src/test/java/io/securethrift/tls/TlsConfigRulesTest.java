package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigException;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TLS rules checked when a configuration is built, and that what they allow really works on both engines: a
 * listed suite without AEAD encryption or forward secrecy is refused unless weak suites are allowed, and then
 * negotiated; a server asking for client certificates must have a trust store, and with one it maps the client.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class TlsConfigRulesTest {
  /**
   * Forward secret but not AEAD. Not a TLS_RSA_* suite (no forward secrecy): Java 25 disables those itself (its
   * jdk.tls.disabledAlgorithms lists TLS_RSA_*), so JSSE would refuse one as unsupported whatever the opt-in.
   */
  private static final String WEAK = "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA";
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    // The default leaf key is RSA, which RSA key exchange needs.
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    clientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "client");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  static Stream<Arguments> engines() {
    List<Arguments> all = new ArrayList<>();
    for (TlsEngine client : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT)) {
      for (TlsEngine server : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT)) {
        all.add(Arguments.of(client, server));
      }
    }
    return all.stream();
  }

  /** TLS 1.2 only (the suite does not exist in TLS 1.3) with {@link #WEAK} as the only suite. */
  private static SecurityConfig.Builder weak(TlsEngine engine, Path keyStore) {
    return TlsTestConfigs.tls(engine, keyStore, trustStore).tlsProtocols(List.of("TLSv1.2"))
        .set("securethrift.tls.cipher.suites", WEAK);
  }

  @ParameterizedTest(name = "client {0}, server {1}")
  @MethodSource("engines")
  void weakSuiteIsRefusedWithoutTheOptInAndNegotiatedWithIt(TlsEngine clientEngine, TlsEngine serverEngine)
      throws Exception {
    ConfigException refused = assertThrows(ConfigException.class, () -> weak(serverEngine, serverStore).build());
    assertEquals("securethrift.tls.cipher.suites: " + WEAK + " is not a suite securethrift accepts (only the TLS"
        + " 1.3 suites and TLS 1.2 ECDHE suites with ECDSA or RSA certificates and AES-GCM or ChaCha20-Poly1305);"
        + " remove it, or set securethrift.tls.allow.weak.cipher.suites=true for peers that support nothing better",
        refused.getMessage());

    SecurityConfig serverConfig = weak(serverEngine, serverStore)
        .set("securethrift.tls.allow.weak.cipher.suites", "true").build();
    SecurityConfig clientConfig = weak(clientEngine, null)
        .set("securethrift.tls.allow.weak.cipher.suites", "true").build();
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(serverConfig);
         ClientTransportFactory clientFactory = ClientTransportFactory.create(clientConfig);
         EchoServer server = EchoServer.start(serverFactory);
         SecuredTransport transport = clientFactory.open("localhost", server.port())) {
      EchoService.Client client = EchoServer.client(transport);
      EchoServer.assertEchoes(client, 1, 64 * 1024);
      PeerIdentity identity = transport.peerIdentity();
      assertEquals("TLSv1.2", identity.tlsProtocol().orElseThrow());
      assertEquals(WEAK, identity.tlsCipherSuite().orElseThrow());
      String seenByServer = client.whoAmI();
      assertTrue(seenByServer.contains("TLSv1.2 " + WEAK), seenByServer);
    }
  }

  @EachTlsEngine
  void clientAuthNeedsATrustStoreAndThenMapsTheClient(TlsEngine engine) throws Exception {
    for (ClientAuth auth : List.of(ClientAuth.WANT, ClientAuth.NEED)) {
      SecurityConfig.Builder noTrustStore = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
          .keyStore(serverStore, StoreType.PKCS12, Secret.of(TlsTestConfigs.PASSWORD)).clientAuth(auth);
      ConfigException refused = assertThrows(ConfigException.class, noTrustStore::build);
      assertEquals("securethrift.tls.client.auth: '" + auth + "' asks TLS clients for certificates, but"
          + " securethrift.tls.truststore.path is empty, so the JVM's default trust store (the public CAs) would"
          + " vouch for them and their names would become principals; set securethrift.tls.truststore.path to the"
          + " trust store holding the CA that issues client certificates", refused.getMessage());
    }
    // want: a client with a certificate is named by it, one without is served unnamed.
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(
            TlsTestConfigs.tls(engine, serverStore, trustStore).clientAuth(ClientAuth.WANT).build());
         EchoServer server = EchoServer.start(serverFactory)) {
      String withCertificate = whoAmI(engine, clientStore, server);
      assertTrue(withCertificate.contains(" principal=alice "), withCertificate);
      String without = whoAmI(engine, null, server);
      assertFalse(without.contains("principal="), without);
    }
  }

  /** The server's view of a client of {@code engine} presenting {@code keyStore} (none when null). */
  private static String whoAmI(TlsEngine engine, Path keyStore, EchoServer server) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(
            TlsTestConfigs.tls(engine, keyStore, trustStore).build());
         SecuredTransport transport = factory.open("localhost", server.port())) {
      return EchoServer.client(transport).whoAmI();
    }
  }
}
