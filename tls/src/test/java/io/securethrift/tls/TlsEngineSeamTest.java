package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import io.securethrift.tls.internal.ConscryptProvider;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The engine seam with the TLS module present: engines contributed through {@code META-INF/services} (this module's
 * conscrypt, and two test engines) are chosen by configuration, {@code auto} passes over an engine that cannot run,
 * and Thrift transports refuse an engine that makes no JCA context before any connection.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class TlsEngineSeamTest {
  private static final String KEY = "securethrift.tls.engine";

  @Test
  void aContributedEngineIsChosenByItsTokenAndRunsARealConnection(TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Path serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    Path trustStore = TlsTestConfigs.trustStore(ca, dir);
    Map<String, String> properties = new HashMap<>(
        TlsTestConfigs.tls(TlsEngine.JSSE, serverStore, trustStore).build().toProperties());
    properties.put(KEY, JsseUnderTestToken.TOKEN);
    SecurityConfig config = SecurityConfig.fromProperties(properties);
    assertEquals(TlsEngine.of(JsseUnderTestToken.TOKEN), config.tls().engine());
    int before = JsseUnderTestToken.PROVIDER_REQUESTS.get();
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(config);
         ClientTransportFactory client = ClientTransportFactory.create(config)) {
      EchoServer server = EchoServer.start(serverFactory);
      try (SecuredTransport transport = client.open("localhost", server.port())) {
        EchoServer.assertEchoes(EchoServer.client(transport), 16);
        assertEquals("TLSv1.3", transport.peerIdentity().tlsProtocol().orElseThrow());
      } finally {
        server.close();
      }
    }
    assertEquals(2, JsseUnderTestToken.PROVIDER_REQUESTS.get() - before, "one context each for server and client");
  }

  @Test
  void anUnknownTokenIsRefusedListingEveryContributedEngine() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "boringssl")));
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().contains(
        "accepted values: auto, conscrypt, jsse, jsse-test, never-runs-test, openssl ("), e.getMessage());
  }

  @Test
  void autoPassesOverAnEngineThatCannotRunAndIsTheSameForEveryConfiguration() {
    String expected = ConscryptProvider.unavailableReason().isPresent() ? "jsse" : "conscrypt";
    SecurityConfig first = SecurityConfig.builder().mode(SecurityMode.TLS).build();
    SecurityConfig second = SecurityConfig.fromProperties(Map.of("securethrift.mode", "sasl-over-tls"));
    assertEquals(TlsEngine.of(expected), first.tls().engine());
    assertSame(first.tls().engineProvider(), second.tls().engineProvider());
  }

  @Test
  void anEngineThatCannotRunIsRefusedWhenTheConfigurationIsBuilt() {
    SecurityConfig.Builder builder = SecurityConfig.builder().mode(SecurityMode.TLS)
        .tlsEngine(TlsEngine.parse(KEY, NeverRunsTestEngine.TOKEN));
    ConfigException e = assertThrows(ConfigException.class, builder::build);
    assertEquals(KEY + ": never-runs-test (a test engine for Netty pipelines only) does not run in this JVM: its"
        + " native library is a test's fiction; use jsse, or auto", e.getMessage());
    assertEquals(NeverRunsTestEngine.TOKEN, builder.mode(SecurityMode.NONE).build().toProperties().get(KEY),
        "a plain configuration runs no engine and is not refused");
  }

  @Test
  void thriftTransportsRefuseAnEngineThatMakesNoContextAtAll(TestCertificateAuthority ca,
      @CertificateDirectory Path dir) {
    Path serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.JSSE, serverStore, TlsTestConfigs.trustStore(ca, dir))
        .tlsEngine(new NeverRunsTestEngine(true)).build();
    String expected = KEY + ": never-runs-test (a test engine for Netty pipelines only) makes neither a JCA"
        + " SSLContext nor engines of its own (TlsEngineProvider.newContext), one of which securethrift's Thrift"
        + " transports run on; use jsse, conscrypt, openssl or auto";
    assertEquals(expected, assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config))
        .getMessage());
    assertEquals(expected, assertThrows(ConfigException.class, () -> ClientTransportFactory.create(config))
        .getMessage());
  }

  @Test
  void conscryptIsTheJvmsOneProviderInTheContextsItMakes() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.CONSCRYPT).build();
    assertSame(ConscryptProvider.instance(), config.tls().engineProvider().provider().orElseThrow());
    assertSame(ConscryptProvider.instance(),
        StandardSslContextFactory.INSTANCE.createContext(config.tls(), Role.CLIENT).getProvider());
  }
}
