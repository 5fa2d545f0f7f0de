package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.conscrypt.ConscryptDropIn;
import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.accumulo.mac.ServerSecurityFile;
import io.securethrift.core.DropInSecurityFile;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.apache.accumulo.core.conf.Property;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Conscrypt drop-in in a real Accumulo 2.1 cluster with two-way TLS, installed in every server JVM only through
 * {@code -Djava.security.properties} ({@link ServerSecurityFile}): the tablet server's Thrift server socket comes from
 * Conscrypt, and a JSSE client (Accumulo's own client in this JVM, which has no drop-in) still calls it.
 *
 * <p>The servers' {@code rpc.ssl.cipher.suites} are {@link DropIn#SERVER_CIPHER_SUITES}, so a tablet server that
 * answers is Conscrypt's.
 */
@MiniCluster
class MacConscryptDropInTest {
  private static final Logger LOG = LoggerFactory.getLogger(MacConscryptDropInTest.class);
  private static final char[] STORE_PASSWORD = "store-secret".toCharArray();
  @TempDir static Path files;
  private static MiniAccumulo mac;

  @BeforeAll
  static void start() throws Exception {
    Path securityFile = DropInSecurityFile.write(files.resolve("conscrypt.security"), List.of(ConscryptDropIn.NAME));
    mac = MiniAccumulo.start(config -> {
      ClusterCertificates.issue(files, STORE_PASSWORD).configure(config, STORE_PASSWORD);
      ServerSecurityFile.install(config, securityFile);
      config.setProperty(Property.RPC_SSL_CIPHER_SUITES, DropIn.SERVER_CIPHER_SUITES);
    });
    LOG.warn("MiniAccumuloCluster (ssl, Conscrypt drop-in) started in {} ms", mac.startTime().toMillis());
  }

  @AfterAll
  static void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  @Test
  void tabletServerServesThriftThroughConscryptToAJsseClient() throws Exception {
    assertEquals("SunJSSE", SSLContext.getInstance("TLSv1.2").getProvider().getName(), "this JVM's client is JSSE");
    String tserver = mac.tabletServers().get(0);
    mac.client().instanceOperations().ping(tserver);
    assertTrue(mac.tabletServerStandardError().contains(DropIn.THRIFT_ON_CONSCRYPT),
        "the tablet server's standard error names the drop-in's SSLContext for Thrift");
  }
}
