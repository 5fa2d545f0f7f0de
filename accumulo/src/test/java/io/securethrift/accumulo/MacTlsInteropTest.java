package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.transport.ClientTransportFactory;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.accumulo.core.trace.thrift.TInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * securethrift's TLS transport calling a real Accumulo 2.1 tablet server that requires client certificates, with
 * the configuration read from the cluster's own files and hostname verification on (securethrift's default).
 */
@MiniCluster
class MacTlsInteropTest {
  private static final Logger LOG = LoggerFactory.getLogger(MacTlsInteropTest.class);
  private static final char[] STORE_PASSWORD = "store-secret".toCharArray();
  @TempDir static Path certs;
  private static MiniAccumulo mac;

  @BeforeAll
  static void start() throws Exception {
    mac = MiniAccumulo.start(
        config -> ClusterCertificates.issue(certs, STORE_PASSWORD).configure(config, STORE_PASSWORD));
    LOG.warn("MiniAccumuloCluster (ssl, client auth) started in {} ms", mac.startTime().toMillis());
  }

  @AfterAll
  static void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  @Test
  void clientPropertiesOfTheClusterAuthenticateWithACertificate() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.clientProperties());
    assertEquals(SecurityMode.TLS, config.mode());
    assertTrue(config.tls().keyStore().isPresent(), "ssl.keystore.path: the client presents its certificate");
    assertTrue(config.tls().hostnameVerification());
    callTabletServer(config);
  }

  @Test
  void siteFileOfTheClusterWorksForAServerNodesClient() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(mac.accumuloProperties());
    assertEquals(SecurityMode.TLS, config.mode());
    callTabletServer(config);
  }

  @Test
  void clientWithoutCertificateIsRefused(@TempDir Path dir) throws Exception {
    Properties props = new Properties();
    try (var in = Files.newBufferedReader(mac.clientProperties())) {
      props.load(in);
    }
    props.keySet().removeIf(k -> k.toString().startsWith("ssl.keystore."));
    Path file = dir.resolve("accumulo-client.properties");
    try (Writer out = Files.newBufferedWriter(file)) {
      props.store(out, null);
    }
    mac.assertTabletServerRefuses(AccumuloSecurityConfig.fromClientProperties(file));
  }

  @Test
  void plainClientIsRefused() {
    mac.assertTabletServerRefuses(SecurityConfig.builder().build());
  }

  private static void callTabletServer(SecurityConfig config) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        AccumuloRpc rpc = AccumuloRpc.open(factory, mac.tabletServers().get(0))) {
      assertEquals(SecurityMode.TLS, rpc.transport().peerIdentity().mode());
      assertEquals(mac.instanceId().canonical(), rpc.client().getInstanceId());
      assertTrue(rpc.client().authenticate(new TInfo(), mac.credentials("root", MiniAccumulo.ROOT_PASSWORD)));
    }
  }
}
