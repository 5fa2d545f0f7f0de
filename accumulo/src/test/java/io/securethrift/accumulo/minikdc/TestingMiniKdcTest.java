package io.securethrift.accumulo.minikdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import org.junit.jupiter.api.Test;

/** What {@link TestingMiniKdc} leaves behind in the JVM: nothing, and it does not start over another KDC. */
class TestingMiniKdcTest {
  private static final String KRB5_CONF = "java.security.krb5.conf";
  private static final String KRB5_DEBUG = "sun.security.krb5.debug";

  @Test
  void closeRestoresTheKerberosPropertiesAndDeletesKeytabsAndKrb5Conf() throws Exception {
    String debugBefore = System.getProperty(KRB5_DEBUG);
    Path keytab;
    Path krb5Conf;
    try (TestingMiniKdc kdc = TestingMiniKdc.start()) {
      krb5Conf = Path.of(System.getProperty(KRB5_CONF));
      assertTrue(Files.readString(krb5Conf).contains("default_realm = " + kdc.realm()), krb5Conf.toString());
      keytab = kdc.principal("carol");
      KerberosPrincipal carol = new KerberosPrincipal(kdc.qualify("carol"));
      assertTrue(KeyTab.getInstance(carol, keytab.toFile()).getKeys(carol).length > 0, keytab.toString());
    }
    assertEquals(null, System.getProperty(KRB5_CONF));
    assertEquals(debugBefore, System.getProperty(KRB5_DEBUG));
    assertFalse(Files.exists(keytab), keytab.toString());
    assertFalse(Files.exists(krb5Conf), krb5Conf.toString());
  }

  @Test
  void refusesToStartWhileAnotherKdcsKrb5ConfIsInForce() {
    String before = System.getProperty(KRB5_CONF);
    System.setProperty(KRB5_CONF, "/elsewhere/krb5.conf");
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class, TestingMiniKdc::start);
      assertTrue(e.getMessage().contains("(/elsewhere/krb5.conf), so another KDC runs in this JVM"), e.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty(KRB5_CONF);
      } else {
        System.setProperty(KRB5_CONF, before);
      }
    }
  }
}
