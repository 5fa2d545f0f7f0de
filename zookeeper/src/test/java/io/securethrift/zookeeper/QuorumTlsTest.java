package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Three servers on loopback whose quorum connections are TLS with certificates from the test CA. */
class QuorumTlsTest {
  @RegisterExtension
  static CertificateAuthorityExtension certs = new CertificateAuthorityExtension();

  private static final char[] PASSWORD = "quorum-pw".toCharArray();
  private static final ZKClientConfig PLAIN = ZooKeeperClientSecurity.clientConfig(SecurityConfig.builder().build());

  @Test
  void quorumFormsOverTlsAndServesWrites() throws Exception {
    SecurityConfig node = nodeConfig(certs.ca().leaf().issue(), "good", TlsEngine.JSSE);
    try (LocalEnsemble zk = LocalEnsemble.builder().size(3).security(node).quorumTls(true).start()) {
      zk.awaitServing(List.of(1, 2, 3), PLAIN, Duration.ofSeconds(90));
      try (ZooKeeper c = Clients.connect(zk.connectString(false), PLAIN, Duration.ofSeconds(30))) {
        c.create("/quorum", "replicated".getBytes(), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        c.sync("/quorum");
      }
      for (int id = 1; id <= 3; id++) {
        assertTrue(zk.status(id, PLAIN).matches("(?s).*Mode: (leader|follower).*"), zk.status(id, PLAIN));
      }
    }
  }

  @Test
  void nodeWithCertificateFromAnotherCaNeverJoins() throws Exception {
    TestCertificateAuthority ca = certs.ca();
    SecurityConfig good = nodeConfig(ca.leaf().issue(), "member", TlsEngine.JSSE);
    SecurityConfig outsider = nodeConfig(ca.signedByOtherCa(), "outsider", TlsEngine.JSSE);
    try (LocalEnsemble zk = LocalEnsemble.builder().size(3).security(id -> id == 3 ? outsider : good)
        .quorumTls(true).start()) {
      zk.awaitServing(List.of(1, 2), PLAIN, Duration.ofSeconds(90));
      try (ZooKeeper c = Clients.connect("127.0.0.1:" + zk.connectString(false).split(",")[0].split(":")[1], PLAIN,
          Duration.ofSeconds(30))) {
        c.create("/two-of-three", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertEquals(0, c.exists("/two-of-three", false).getDataLength());
      }
      // Two servers elected a leader and served a write over the time the outsider kept trying to join.
      assertTrue(zk.isAlive(3), "the outsider keeps running and retrying");
      assertFalse(zk.isServing(3, PLAIN), zk.status(3, PLAIN));
      assertTrue(zk.status(3, PLAIN).contains("not currently serving requests"), zk.status(3, PLAIN));
    }
  }

  private static SecurityConfig nodeConfig(IssuedCertificate cert, String name, TlsEngine engine) {
    Path dir = certs.directory();
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .keyStore(cert.writeKeyStore(dir, name, KeyStoreFormat.PKCS12, PASSWORD), null, Secret.of(PASSWORD))
        .trustStore(certs.ca().writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD), null, Secret.of(PASSWORD))
        .build();
  }
}
