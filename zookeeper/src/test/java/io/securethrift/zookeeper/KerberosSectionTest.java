package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.SaslSettings;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.KerberosName;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.security.auth.login.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JAAS section ZooKeeper's own login reads: a {@code _HOST} principal reaches its {@code Krb5LoginModule}
 * expanded by the same rule as every other securethrift login, not as the placeholder.
 */
class KerberosSectionTest {
  @Test
  void aHostPrincipalReachesTheLoginModuleExpanded(@TempDir Path dir) throws Exception {
    Path keytab = Files.createFile(dir.resolve("zookeeper.keytab"));
    SaslSettings sasl = SecurityConfig.builder().mode(SecurityMode.SASL)
        .kerberosLogin("zookeeper/_HOST@EXAMPLE.COM", keytab).build().sasl();
    String section = KerberosSection.register(sasl, false);
    assertEquals("zookeeper/" + KerberosName.localHostName() + "@EXAMPLE.COM",
        Configuration.getConfiguration().getAppConfigurationEntry(section)[0].getOptions().get("principal"));
  }
}
