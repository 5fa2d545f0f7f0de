package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import java.util.List;
import org.apache.accumulo.core.clientImpl.thrift.ThriftSecurityException;
import org.apache.accumulo.core.trace.thrift.TInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * securethrift's SASL (GSSAPI) transport calling a real, Kerberized Accumulo 2.1 tablet server whose
 * {@code rpc.sasl.qop} is {@link #qop()}, configured from the cluster's own files. Each subclass starts one cluster for
 * its QOP: Accumulo accepts exactly the level it is configured with.
 */
@MiniCluster
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MacSaslInterop {
  private static final Logger LOG = LoggerFactory.getLogger(MacSaslInterop.class);
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private MiniAccumulo mac;
  private String root;

  /** The QOP the cluster is configured with. */
  abstract QualityOfProtection qop();

  @BeforeAll
  void start() throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    root = kdc.qualify(KerberosMac.ROOT);
    mac = MiniAccumulo.start(config -> KerberosMac.configure(config, kdc, qop().toString()));
    LOG.warn("MiniAccumuloCluster (sasl {}) started in {} ms", qop(), mac.startTime().toMillis());
  }

  @AfterAll
  void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  MiniAccumulo mac() {
    return mac;
  }

  /** The cluster's own {@code accumulo-client.properties}: Kerberos login of {@code root} from its keytab. */
  SecurityConfig clientConfig() {
    return AccumuloSecurityConfig.fromClientProperties(mac.clientProperties());
  }

  @Test
  void clientPropertiesOfTheClusterAuthenticateWithKerberos() throws Exception {
    SecurityConfig config = clientConfig();
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(qop()), config.sasl().qop());
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        AccumuloRpc rpc = AccumuloRpc.open(factory, mac.tabletServers().get(0))) {
      PeerIdentity peer = rpc.transport().peerIdentity();
      assertEquals(SecurityMode.SASL, peer.mode());
      assertEquals(qop(), peer.qop().orElseThrow());
      assertEquals(mac.instanceId().canonical(), rpc.client().getInstanceId());
      assertTrue(rpc.client().authenticate(new TInfo(), mac.kerberosCredentials(root)));
      assertTrue(rpc.client().listLocalUsers(new TInfo(), mac.kerberosCredentials(root)).contains(root));
      assertThrows(ThriftSecurityException.class,
          () -> rpc.client().authenticate(new TInfo(), mac.kerberosCredentials(KDC.kdc().qualify("mallory"))),
          "credentials must name the principal the SASL session authenticated");
      assertTrue(rpc.client().authenticate(new TInfo(), mac.kerberosCredentials(root)),
          "the connection stays usable after a rejected call");
    }
  }

  @Test
  void siteFileOfTheClusterConnectsAsTheServerPrincipal() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(mac.accumuloProperties());
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(KerberosMac.SERVER_PRIMARY, config.sasl().serverPrimary());
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        AccumuloRpc rpc = AccumuloRpc.open(factory, mac.tabletServers().get(0))) {
      assertEquals(mac.instanceId().canonical(), rpc.client().getInstanceId());
    }
  }

  @Test
  void plainClientIsRefused() {
    mac.assertTabletServerRefuses(SecurityConfig.builder().build());
  }
}
