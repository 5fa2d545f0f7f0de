package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testing.GssapiSasl;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.sasl.SaslProviderDropIn;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kerberos SASL against the embedded KDC, for clients and for the quorum: two servers, each in its own JVM, that
 * authenticate each other with Kerberos (both require it, so they form no quorum without it), and clients whose JAAS
 * is built in code, one writing through one server and another reading through the other; once on the JDK's GSSAPI
 * mechanism, once on securethrift's, installed by its security file in the servers' JVMs and in code in this one, as
 * an operator would add it to an unmodified ZooKeeper.
 */
class SaslKerberosTest {
  /** LocalEnsemble's own server JVM options, which a test's options replace. */
  private static final List<String> SERVER_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC");

  @RegisterExtension
  static KdcExtension kdc = KdcExtension.builder().principals("zookeeper/localhost", "alice", "bob").build();

  @Test
  @UsesJdkGssapi
  void saslAclAdmitsItsPrincipalAndKeepsAnotherOut() throws Exception {
    aclAdmitsAliceAndKeepsBobOut(SERVER_JVM, GssapiSasl.javaHome());
  }

  @Test
  void theSameOnSecureThriftsGssapiThroughItsProvider(@TempDir Path dir) throws Exception {
    Path file = DropInSecurityFile.write(dir.resolve("sasl.security"), List.of(SaslProviderDropIn.NAME));
    List<String> serverJvm = new ArrayList<>(SERVER_JVM);
    serverJvm.add("-Djava.security.properties=" + file);
    long before = SecureThriftSaslProvider.negotiations("auth");
    boolean installed = SecureThriftSaslProvider.install();
    try {
      aclAdmitsAliceAndKeepsBobOut(serverJvm, Path.of(System.getProperty("java.home")));
    } finally {
      if (installed) {
        Security.removeProvider(SecureThriftSaslProvider.NAME);
      }
    }
    // Alice's and Bob's clients ran securethrift's mechanism here; the servers have no other (their file leaves
    // JdkSASL out).
    assertTrue(SecureThriftSaslProvider.negotiations("auth") >= before + 2, "client negotiations on the provider");
  }

  /** The server runs on {@code javaHome} with {@code serverJvm}'s options. */
  private static void aclAdmitsAliceAndKeepsBobOut(List<String> serverJvm, Path javaHome) throws Exception {
    EmbeddedKdc k = kdc.kdc();
    KerberosIdentity service = k.principal("zookeeper/localhost");
    SecurityConfig server = SecurityConfig.builder().mode(SecurityMode.SASL).qop(QualityOfProtection.AUTH)
        .kerberosLogin(service.principal(), service.keytab()).serverPrimary("zookeeper").build();
    try (LocalEnsemble zk = LocalEnsemble.builder().size(2).quorumSasl(true).security(server).jvmOptions(serverJvm)
        .javaHome(javaHome).start()) {
      zk.awaitServing(List.of(1, 2), ZooKeeperClientSecurity.clientConfig(SecurityConfig.builder().build()),
          Duration.ofSeconds(60));
      String alice = k.principal("alice").principal();
      byte[] secret = "alice's".getBytes();
      try (ZooKeeper a = Clients.connect(zk.connectString(false, 1), clientOf(k.principal("alice")),
          KeeperState.SaslAuthenticated, Duration.ofSeconds(30))) {
        // ZooKeeper probes the list with contains(null), which immutable lists reject.
        a.create("/alice-only", secret, new ArrayList<>(List.of(new ACL(Perms.ALL, new Id("sasl", alice)))),
            CreateMode.PERSISTENT);
        assertArrayEquals(secret, a.getData("/alice-only", false, null));
      }
      try (ZooKeeper b = Clients.connect(zk.connectString(false, 2), clientOf(k.principal("bob")),
          KeeperState.SaslAuthenticated, Duration.ofSeconds(30))) {
        assertThrows(KeeperException.NoAuthException.class, () -> b.getData("/alice-only", false, null));
        assertThrows(KeeperException.NoAuthException.class, () -> b.setData("/alice-only", new byte[0], -1));
      }
    }
  }

  private static org.apache.zookeeper.client.ZKClientConfig clientOf(KerberosIdentity user) {
    return ZooKeeperClientSecurity.clientConfig(SecurityConfig.builder().mode(SecurityMode.SASL)
        .qop(QualityOfProtection.AUTH).kerberosLogin(user.principal(), user.keytab()).serverPrimary("zookeeper")
        .serverHost("localhost").build());
  }
}
