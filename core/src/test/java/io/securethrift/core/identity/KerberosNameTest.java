package io.securethrift.core.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KerberosNameTest {
  @Test
  void aServicePrincipalHasThreeParts() {
    KerberosName p = KerberosName.parse("accumulo/tserver1.example.com@EXAMPLE.COM");
    assertEquals("accumulo", p.primary());
    assertEquals(Optional.of("tserver1.example.com"), p.instance());
    assertEquals(Optional.of("EXAMPLE.COM"), p.realm());
    assertEquals("accumulo/tserver1.example.com@EXAMPLE.COM", p.toString());
  }

  @Test
  void aUserNeedsNeitherInstanceNorRealm() {
    KerberosName p = KerberosName.parse("alice");
    assertEquals("alice", p.primary());
    assertEquals(Optional.empty(), p.instance());
    assertEquals(Optional.empty(), p.realm());
    assertEquals("alice@EXAMPLE.COM", KerberosName.parse("alice@EXAMPLE.COM").toString());
  }

  /** Hadoop's rule, which Accumulo and ZooKeeper servers use: only an instance of exactly _HOST, in lower case. */
  @Test
  void onlyAnInstanceOfExactlyHostIsExpandedInLowerCase() {
    assertEquals("accumulo/node1.example.com@EXAMPLE.COM",
        KerberosName.parse("accumulo/_HOST@EXAMPLE.COM").withHostExpanded(() -> "Node1.Example.COM").toString());
    assertEquals("zookeeper/node1", KerberosName.parse("zookeeper/_HOST").withHostExpanded(() -> "NODE1")
        .toString());
    for (String unchanged : new String[] {"accumulo/_HOSTS@EXAMPLE.COM", "accumulo/_host@EXAMPLE.COM",
        "_HOST@EXAMPLE.COM", "accumulo/a._HOST@EXAMPLE.COM"}) {
      KerberosName p = KerberosName.parse(unchanged);
      assertSame(p, p.withHostExpanded(() -> {
        throw new AssertionError("no host needed for " + unchanged);
      }));
    }
  }

  @Test
  void theLocalHostNameIsTheCanonicalOneInLowerCase() throws Exception {
    String host = java.net.InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(java.util.Locale.ROOT);
    assertEquals("accumulo/" + host + "@EXAMPLE.COM",
        KerberosName.parse("accumulo/_HOST@EXAMPLE.COM").withHostExpanded().toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/host@EXAMPLE.COM", "accumulo/@EXAMPLE.COM", "accumulo/host@", "@EXAMPLE.COM"})
  void anEmptyPartIsRefusedNamingThePrincipal(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KerberosName.parse(name));
    assertTrue(e.getMessage().startsWith("'" + name + "' is not a Kerberos principal"), e.getMessage());
  }
}
