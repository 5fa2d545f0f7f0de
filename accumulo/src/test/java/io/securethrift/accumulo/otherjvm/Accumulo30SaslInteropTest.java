package io.securethrift.accumulo.otherjvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.accumulo.mac.KerberizedCluster;
import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.sasl.SaslProviderDropIn;
import io.securethrift.sasl.SecureThriftSaslProvider;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.accumulo.core.conf.Property;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * securethrift's SASL (GSSAPI) transport calling real, Kerberized Accumulo 3.0 tablet servers in another JVM, in each
 * QOP, set up as {@code MacSaslInterop}'s 2.1 clusters. Accumulo fixes {@code rpc.sasl.qop} when a server starts and
 * accepts exactly that level, so one cluster runs with auth-conf and two more tablet servers with auth and auth-int;
 * each QOP's client is the cluster's own client file with its QOP. One more auth-conf tablet server runs with
 * securethrift's SASL provider added by its security file alone: it gives securethrift's client AES-GCM, while the
 * manager, without the provider, still reaches it with standard Kerberos wrap.
 */
@MiniCluster
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Accumulo30SaslInteropTest {
  private static final Logger LOG = LoggerFactory.getLogger(Accumulo30SaslInteropTest.class);
  private static final String SERVER_PRIMARY = "accumulo";
  private static final QualityOfProtection CLUSTER_QOP = QualityOfProtection.AUTH_CONF;
  /** The auth-conf tablet server whose JVM has securethrift's SASL provider. */
  private static final String PROVIDER = "provider";
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private OtherJvmMac mac;
  private String root;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    root = kdc.qualify("root");
    Accumulo30.Builder cluster = Accumulo30.cluster(config -> KerberizedCluster.configure(config,
        kdc.servicePrincipal(SERVER_PRIMARY, EmbeddedKdc.HOST), kdc.principal("root"), kdc.krb5Conf(),
        CLUSTER_QOP.toString()));
    for (QualityOfProtection qop : QualityOfProtection.values()) {
      if (qop != CLUSTER_QOP) {
        cluster.tabletServer(qop.toString(), Map.of(Property.RPC_SASL_QOP.getKey(), qop.toString()), Map.of());
      }
    }
    Path file = DropInSecurityFile.write(dir.resolve("sasl.security"), List.of(SaslProviderDropIn.NAME));
    cluster.tabletServer(PROVIDER, Map.of(), Map.of("java.security.properties", file.toString()))
        .classPath(Accumulo30.codeSource(SecureThriftSaslProvider.class), Accumulo30.codeSource(ConfigProperty.class));
    mac = cluster.start();
    LOG.warn("Accumulo 3.0 MiniAccumuloCluster (sasl, a tablet server per QOP) started in {} ms",
        mac.startTime().toMillis());
  }

  @AfterAll
  void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void clientPropertiesOfTheClusterAuthenticateWithKerberos(QualityOfProtection qop) throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.file("CLIENT_PROPERTIES"));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(CLUSTER_QOP), config.sasl().qop());
    try (ClientTransportFactory factory = ClientTransportFactory.create(config.toBuilder().qop(qop).build());
        ClientServiceCalls calls = Accumulo30.calls(factory, tabletServer(qop))) {
      PeerIdentity peer = calls.transport().peerIdentity();
      assertEquals(SecurityMode.SASL, peer.mode());
      assertEquals(qop, peer.qop().orElseThrow());
      assertEquals(mac.instanceId(), calls.getInstanceId());
      assertTrue(calls.authenticate(ClientServiceCalls.kerberos(root, mac.instanceId())));
      assertTrue(calls.listLocalUsers(ClientServiceCalls.kerberos(root, mac.instanceId())).contains(root));
      assertThrows(ClientServiceCalls.SecurityException.class,
          () -> calls.authenticate(ClientServiceCalls.kerberos(KDC.kdc().qualify("mallory"), mac.instanceId())),
          "credentials must name the principal the SASL session authenticated");
      assertTrue(calls.authenticate(ClientServiceCalls.kerberos(root, mac.instanceId())),
          "the connection stays usable after a rejected call");
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void siteFileOfEachServerConnectsAsTheServerPrincipal(QualityOfProtection qop) throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(siteFile(qop));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(SERVER_PRIMARY, config.sasl().serverPrimary());
    assertEquals(List.of(qop), config.sasl().qop());
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        ClientServiceCalls calls = Accumulo30.calls(factory, tabletServer(qop))) {
      assertEquals(mac.instanceId(), calls.getInstanceId());
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void plainClientIsRefused(QualityOfProtection qop) {
    Accumulo30.assertRefuses(tabletServer(qop), SecurityConfig.builder().build());
  }

  @Test
  void clientWithAWeakerQopIsRefusedWithBothLevelsNamed() {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.file("CLIENT_PROPERTIES"));
    try (ClientTransportFactory factory = ClientTransportFactory.create(config.toBuilder()
        .qop(QualityOfProtection.AUTH_INT).build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> Accumulo30.calls(factory, tabletServer(QualityOfProtection.AUTH_CONF)).close());
      assertTrue(e.getMessage().contains("auth-int") && e.getMessage().contains("auth-conf"), e.getMessage());
    }
  }

  @Test
  void theTabletServerWithTheProviderGivesAesGcm() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.file("CLIENT_PROPERTIES")).toBuilder()
        .saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED).build();
    try (ClientTransportFactory factory = ClientTransportFactory.create(config)) {
      try (ClientServiceCalls calls = Accumulo30.calls(factory, mac.answer("TSERVER." + PROVIDER))) {
        assertEquals(Optional.of(SaslPrivacy.AES_GCM), calls.transport().peerIdentity().privacy());
        assertTrue(calls.authenticate(ClientServiceCalls.kerberos(root, mac.instanceId())));
      }
      try (ClientServiceCalls calls = Accumulo30.calls(factory, mac.tabletServer())) {
        assertEquals(Optional.of(SaslPrivacy.GSS), calls.transport().peerIdentity().privacy(),
            "a tablet server without the provider is served with Kerberos wrap");
        assertTrue(calls.authenticate(ClientServiceCalls.kerberos(root, mac.instanceId())));
      }
    }
  }

  private String tabletServer(QualityOfProtection qop) {
    return qop == CLUSTER_QOP ? mac.tabletServer() : mac.answer("TSERVER." + qop);
  }

  private Path siteFile(QualityOfProtection qop) {
    return qop == CLUSTER_QOP ? mac.file("SITE") : mac.file("SITE." + qop);
  }
}
