package io.securethrift.bench.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.harness.BenchMode;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Security;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * sasl-bench's Kerberos side on a real embedded KDC: the configuration each privacy mode gets, what a connection of
 * that configuration negotiates, and libthrift's own transports with and without {@link SecureThriftSaslProvider},
 * which the fixture installs only for as long as it is open and only if it was not there.
 */
class SaslKerberosTest {
  private static final ByteBuffer PAYLOAD = ByteBuffer.wrap("privacy".getBytes(StandardCharsets.UTF_8));
  private static SaslKerberos kerberos;

  @BeforeAll
  static void kdc() throws Exception {
    kerberos = new SaslKerberos();
  }

  @AfterAll
  static void close() {
    if (kerberos != null) {
      kerberos.close();
    }
  }

  @Test
  void noneIsPlainFramingWithRoomForTheLargestPayload() {
    SecurityConfig none = kerberos.server(mode("none"));
    assertEquals(SecurityMode.NONE, none.mode());
    assertEquals(4 << 20, none.limits().maxFrameSize());
    assertEquals(SecurityMode.NONE, kerberos.client(mode("none")).mode());
  }

  @Test
  void eachPrivacyModeConfiguresItsLayerAndCipherProvider() {
    SecurityConfig gss = kerberos.client(mode("sasl-auth-conf"));
    assertEquals(SaslMechanism.GSSAPI, gss.sasl().mechanism());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), gss.sasl().qop());
    assertEquals(SaslPrivacy.GSS, gss.sasl().privacy());
    assertTrue(gss.sasl().privacyProvider().isEmpty());
    SecurityConfig jdk = kerberos.server(mode("sasl-auth-conf-gcm"));
    assertEquals(SaslPrivacy.AES_GCM, jdk.sasl().privacy());
    assertTrue(jdk.sasl().privacyProvider().isEmpty(), "the JVM's provider list: the JDK's cipher");
    assertSame(SaslKerberos.conscrypt(), kerberos.server(mode("sasl-auth-conf-gcm-conscrypt")).sasl()
        .privacyProvider().orElseThrow(), "one Conscrypt provider for every configuration");
    assertSame(SaslKerberos.accp(), kerberos.client(mode("sasl-auth-conf-gcm-accp")).sasl().privacyProvider()
        .orElseThrow());
    assertEquals("Conscrypt", SaslKerberos.conscrypt().getName());
    assertEquals("AmazonCorrettoCryptoProvider", SaslKerberos.accp().getName());
    assertTrue(kerberos.server(mode("sasl-auth-conf")).sasl().kerberosKeytab().isPresent(),
        "the server logs in from the service's keytab");
  }

  @Test
  void aGssAndAnAesGcmConnectionNegotiateWhatTheirModeSays() throws Exception {
    PeerIdentity gss = echo(mode("sasl-auth-conf"));
    assertEquals("GSSAPI", gss.mechanism().orElseThrow());
    assertEquals(QualityOfProtection.AUTH_CONF, gss.qop().orElseThrow());
    assertEquals(SaslPrivacy.GSS, gss.privacy().orElseThrow());
    PeerIdentity gcm = echo(mode("sasl-auth-conf-gcm-conscrypt"));
    assertEquals(SaslPrivacy.AES_GCM, gcm.privacy().orElseThrow());
    assertEquals("GSSAPI", gcm.mechanism().orElseThrow(), "AES-GCM records keyed through GSSAPI");
    assertTrue(gcm.saslCipher().isEmpty(), "a cipher name is DIGEST-MD5's only: " + gcm);
  }

  @Test
  void libthriftsTransportsEchoAndTheProviderIsThereOnlyWhileTheFixtureIs() throws Exception {
    assertNull(Security.getProvider(SecureThriftSaslProvider.NAME));
    for (String name : List.of("sasl-auth-libthrift", "sasl-auth-conf-libthrift", "sasl-auth-conf-provider")) {
      BenchMode mode = mode(name);
      assertTrue(mode.onLibthrift(), name);
      try (LibthriftSaslFixture fixture = kerberos.libthrift(mode); EchoConnection connection = fixture.connect()) {
        assertEquals(PAYLOAD, connection.echo(PAYLOAD), name);
        assertNotNull(Security.getProvider(SecureThriftSaslProvider.NAME), name + ": installed while open");
      }
      assertNull(Security.getProvider(SecureThriftSaslProvider.NAME), name + ": removed on close");
    }
  }

  @Test
  void aProviderInstalledBeforeTheFixtureStaysAfterIt() throws Exception {
    assertTrue(SecureThriftSaslProvider.install());
    try {
      try (LibthriftSaslFixture fixture = kerberos.libthrift(mode("sasl-auth-conf-provider"));
          EchoConnection connection = fixture.connect()) {
        assertEquals(PAYLOAD, connection.echo(PAYLOAD));
      }
      assertNotNull(Security.getProvider(SecureThriftSaslProvider.NAME), "not the fixture's to remove");
      assertFalse(SecureThriftSaslProvider.install(), "still installed");
    } finally {
      Security.removeProvider(SecureThriftSaslProvider.NAME);
    }
  }

  private static PeerIdentity echo(BenchMode mode) throws Exception {
    try (EchoFixture fixture = EchoFixture.start(kerberos.server(mode), kerberos.client(mode));
        EchoConnection connection = fixture.connect()) {
      assertEquals(PAYLOAD, connection.echo(PAYLOAD), mode.name());
      return connection.peerIdentity();
    }
  }

  private static BenchMode mode(String name) {
    return SaslKerberos.MODES.parse("mode", name);
  }
}
