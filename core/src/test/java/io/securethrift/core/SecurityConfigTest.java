package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecurityConfigTest {
  @TempDir
  Path dir;

  @Test
  void defaultsAreSafeAndMatchTheDocumentedDefaults() {
    SecurityConfig config = SecurityConfig.builder().build();
    assertEquals(SecurityMode.NONE, config.mode());
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), config.tls().protocols());
    assertTrue(config.tls().hostnameVerification());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
    assertEquals(CipherStrength.HIGH, config.sasl().digestMinStrength());
    assertEquals("accumulo", config.sasl().serverPrimary());
    assertEquals(Duration.ofSeconds(120), config.timeouts().read());
    assertEquals(16 << 20, config.limits().maxFrameSize());
    assertEquals(64 << 10, config.limits().maxNegotiationMessageSize());
    for (ConfigProperty p : ConfigProperty.values()) {
      assertEquals(p.defaultValue(), config.toProperties().get(p.key()), p.key());
    }
  }

  @Test
  void propertiesRoundTrip() throws IOException {
    Path keystore = Files.writeString(dir.resolve("server.p12"), "x");
    Path keytab = Files.writeString(dir.resolve("svc.keytab"), "x");
    Map<String, String> props = Map.of(
        "securethrift.mode", "sasl-over-tls",
        "securethrift.tls.engine", "jsse",
        "securethrift.tls.keystore.path", keystore.toString(),
        "securethrift.tls.keystore.password", "changeit",
        "securethrift.sasl.qop", "auth-conf,auth-int",
        "securethrift.sasl.kerberos.principal", "accumulo/_HOST@EXAMPLE.COM",
        "securethrift.sasl.kerberos.keytab", keytab.toString(),
        "securethrift.timeout.read", "500ms",
        "securethrift.limit.max.frame.size", "1G",
        "unrelated.key", "ignored");
    SecurityConfig config = SecurityConfig.fromProperties(props);
    assertEquals(SecurityMode.SASL_OVER_TLS, config.mode());
    assertEquals(StoreType.PKCS12, config.tls().keyStore().orElseThrow().type());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT), config.sasl().qop());
    assertEquals(Duration.ofMillis(500), config.timeouts().read());
    assertEquals(1 << 30, config.limits().maxFrameSize());
    assertEquals(config.toProperties(), SecurityConfig.fromProperties(config.toProperties()).toProperties());
    assertEquals(config.toProperties(), config.toBuilder().build().toProperties());
  }

  @Test
  void digestMinimumStrengthIsReadAndWrittenAsItsToken() {
    SecurityConfig config = SecurityConfig.fromProperties(Map.of("securethrift.sasl.digest.min.strength", "medium"));
    assertEquals(CipherStrength.MEDIUM, config.sasl().digestMinStrength());
    assertEquals("medium", config.toProperties().get("securethrift.sasl.digest.min.strength"));
    assertTrue(CipherStrength.HIGH.atLeast(CipherStrength.MEDIUM)
        && !CipherStrength.LOW.atLeast(CipherStrength.MEDIUM));
  }

  @Test
  void toBuilderCopiesValuesIncludingSecretsAndExtensions() throws IOException {
    Path keystore = Files.writeString(dir.resolve("server.pem"), "x");
    Secret password = Secret.of(new char[] {'p', '\u00e9', ' ', '='});
    DelegationTokenSecrets secrets = id -> java.util.Optional.empty();
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).keyStore(keystore, null, password)
        .keyStoreAlias("node").delegationTokenSecrets(secrets).readTimeout(Duration.ofMillis(1500)).build();
    SecurityConfig copy = config.toBuilder().build();
    StoreLocation store = copy.tls().keyStore().orElseThrow();
    assertEquals(password, store.password().orElseThrow());
    assertEquals(StoreType.PEM, store.type());
    assertEquals("node", store.alias().orElseThrow());
    assertTrue(copy.sasl().delegationTokenSecrets().orElseThrow() == secrets);
    assertEquals(config.toProperties(), copy.toProperties());
  }

  @Test
  void rejectionsCarryKeyProblemAndSource() {
    ConfigException fromBuilder = assertThrows(ConfigException.class,
        () -> SecurityConfig.builder().readTimeout(Duration.ofSeconds(-1)).build());
    assertEquals("securethrift.timeout.read", fromBuilder.key());
    assertEquals("'-1s' must not be negative", fromBuilder.problem());
    assertEquals(ConfigException.BUILDER, fromBuilder.source());
    assertEquals("securethrift.timeout.read: '-1s' must not be negative", fromBuilder.getMessage());
    ConfigException fromProperties = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of("securethrift.timeout.read", "soon")));
    assertEquals(ConfigException.PROPERTIES, fromProperties.source());
    assertEquals("securethrift.timeout.read", fromProperties.key());
    assertTrue(fromProperties.problem().startsWith("'soon' is not a duration"), fromProperties.problem());
  }

  @Test
  void toStringNeverShowsPasswords() throws IOException {
    Path keystore = Files.writeString(dir.resolve("server.jks"), "x");
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS)
        .keyStore(keystore, null, Secret.of("hunter2")).build();
    assertFalse(config.toString().contains("hunter2"), config.toString());
    assertTrue(config.toString().contains("securethrift.tls.keystore.password=****"), config.toString());
    assertEquals(StoreType.JKS, config.tls().keyStore().orElseThrow().type());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "securethrift.mode|ssl|securethrift.mode: 'ssl' is not accepted; accepted values: none, tls, sasl, sasl-over-tls",
      "securethrift.tls.engine|boringssl|securethrift.tls.engine: 'boringssl' is not accepted; accepted values:"
          + " auto, jsse (an engine is contributed by the module that has it: conscrypt and openssl by"
          + " securethrift-tls)",
      "securethrift.tls.protocols|TLSv1.2,TLSv1|securethrift.tls.protocols: 'TLSv1' is not accepted; accepted"
          + " values: TLSv1.3, TLSv1.2 (older versions are insecure)",
      "securethrift.tls.protocols|TLSv1.2,TLSv1.2|securethrift.tls.protocols: 'TLSv1.2' is listed twice",
      "securethrift.tls.protocols|' '|securethrift.tls.protocols: empty; give TLSv1.3, TLSv1.2 or both",
      "securethrift.tls.cipher.suites|TLS_AES_128_GCM_SHA256,aes|securethrift.tls.cipher.suites: 'aes' is not a"
          + " cipher suite name; use IANA names such as TLS_AES_128_GCM_SHA256",
      "securethrift.tls.cipher.suites|TLS_RSA_WITH_AES_128_CBC_SHA|securethrift.tls.cipher.suites:"
          + " TLS_RSA_WITH_AES_128_CBC_SHA is not a suite securethrift accepts (only the TLS 1.3 suites and TLS 1.2"
          + " ECDHE suites with ECDSA or RSA certificates and AES-GCM or ChaCha20-Poly1305); remove it, or set"
          + " securethrift.tls.allow.weak.cipher.suites=true for peers that support nothing better",
      "securethrift.tls.allow.weak.cipher.suites|yes|securethrift.tls.allow.weak.cipher.suites: 'yes' is not"
          + " accepted; accepted values: true, false",
      "securethrift.tls.keystore.path|/no/such/keystore.p12|securethrift.tls.keystore.path: file"
          + " /no/such/keystore.p12 does not exist",
      "securethrift.tls.keystore.password|secret|securethrift.tls.keystore.password: set, but"
          + " securethrift.tls.keystore.path is not; set the store's path too",
      "securethrift.tls.truststore.password|secret|securethrift.tls.truststore.password: set, but"
          + " securethrift.tls.truststore.path is not; set the store's path too",
      "securethrift.tls.keystore.type|p12|securethrift.tls.keystore.type: 'p12' is not accepted; accepted values:"
          + " jks, pkcs12, pem",
      "securethrift.tls.truststore.type|der|securethrift.tls.truststore.type: 'der' is not accepted; accepted"
          + " values: jks, pkcs12, pem",
      "securethrift.tls.client.auth|required|securethrift.tls.client.auth: 'required' is not accepted; accepted"
          + " values: none, want, need",
      "securethrift.tls.hostname.verification|yes|securethrift.tls.hostname.verification: 'yes' is not accepted;"
          + " accepted values: true, false",
      "securethrift.tls.principal.mapping|uid|securethrift.tls.principal.mapping: 'uid' is not accepted; accepted"
          + " values: subject, cn, san-dns, san-email, san-uri",
      "securethrift.tls.reload.interval|soon|securethrift.tls.reload.interval: 'soon' is not a duration; write a"
          + " whole number with a unit: ms, s, m, h or d (for example 30s); a bare number means seconds",
      "securethrift.sasl.mechanism|PLAIN|securethrift.sasl.mechanism: 'PLAIN' is not accepted; accepted values:"
          + " GSSAPI, DIGEST-MD5",
      "securethrift.sasl.qop|auth-conf,integrity|securethrift.sasl.qop: 'integrity' is not accepted; accepted"
          + " values: auth, auth-int, auth-conf",
      "securethrift.sasl.qop|AUTH|securethrift.sasl.qop: 'AUTH' is not accepted; accepted values: auth, auth-int,"
          + " auth-conf",
      "securethrift.sasl.qop|auth,auth|securethrift.sasl.qop: 'auth' is listed twice",
      "securethrift.sasl.qop|,|securethrift.sasl.qop: empty; give one or more of auth, auth-int, auth-conf in order"
          + " of preference",
      "securethrift.sasl.digest.min.strength|strong|securethrift.sasl.digest.min.strength: 'strong' is not accepted;"
          + " accepted values: low, medium, high",
      "securethrift.sasl.kerberos.server.primary|accumulo/host|securethrift.sasl.kerberos.server.primary:"
          + " 'accumulo/host' must be the primary alone, without /host or @REALM",
      "securethrift.sasl.server.host|accumulo/host|securethrift.sasl.server.host: 'accumulo/host' must be a host"
          + " name alone, without primary/ or @REALM",
      "securethrift.sasl.kerberos.principal|svc/@EXAMPLE.COM|securethrift.sasl.kerberos.principal:"
          + " 'svc/@EXAMPLE.COM' is not a Kerberos principal: expected primary, primary/instance or either with"
          + " @REALM, no part empty",
      "securethrift.sasl.kerberos.principal|svc@EXAMPLE.COM|securethrift.sasl.kerberos.keytab: empty, but"
          + " securethrift.sasl.kerberos.principal is set; give the keytab to log in from",
      "securethrift.sasl.kerberos.keytab|/no/such.keytab|securethrift.sasl.kerberos.principal: empty, but"
          + " securethrift.sasl.kerberos.keytab is set; give the principal whose keys the keytab holds",
      "securethrift.sasl.canonicalize.hostname|1|securethrift.sasl.canonicalize.hostname: '1' is not accepted;"
          + " accepted values: true, false",
      "securethrift.sasl.kerberos.renewal.period|0s|securethrift.sasl.kerberos.renewal.period: '0s' must be greater"
          + " than zero",
      "securethrift.timeout.connect|0|securethrift.timeout.connect: '0s' must be greater than zero",
      "securethrift.timeout.handshake|0ms|securethrift.timeout.handshake: '0s' must be greater than zero",
      "securethrift.timeout.read|-1s|securethrift.timeout.read: '-1s' is not a duration; write a whole number with"
          + " a unit: ms, s, m, h or d (for example 30s); a bare number means seconds",
      "securethrift.limit.max.frame.size|100|securethrift.limit.max.frame.size: 100 bytes is outside the accepted"
          + " range 1K to 2147483639 bytes",
      "securethrift.limit.max.frame.size|2G|securethrift.limit.max.frame.size: 2147483648 bytes is outside the"
          + " accepted range 1K to 2147483639 bytes",
      "securethrift.limit.max.frame.size|lots|securethrift.limit.max.frame.size: 'lots' is not a size; write a"
          + " whole number of bytes, optionally with K, M or G (for example 16M)",
      "securethrift.limit.max.negotiation.message.size|32M|securethrift.limit.max.negotiation.message.size:"
          + " 33554432 bytes is larger than securethrift.limit.max.frame.size (16777216 bytes); a negotiation"
          + " message must fit in a frame",
      "securethrift.tls.keystore|x|securethrift.tls.keystore: unknown setting; see docs/configuration.md for the"
          + " keys securethrift reads",
      "securethrift.tls.keystore.path|/tmp/a\u0000b|securethrift.tls.keystore.path: '/tmp/a\\u0000b' is not a file"
          + " path: Nul character not allowed",
      "securethrift.timeout.read|99999999999999999999|securethrift.timeout.read: '99999999999999999999' is too large",
      "securethrift.timeout.read|9999999999999999d|securethrift.timeout.read: '9999999999999999d' is too large",
      "securethrift.limit.max.frame.size|99999999999999999999|securethrift.limit.max.frame.size:"
          + " '99999999999999999999' is too large",
      "securethrift.tls.protocols|TLSv1.3\u001b[31m|securethrift.tls.protocols: 'TLSv1.3\\u001b[31m' is not"
          + " accepted; accepted values: TLSv1.3, TLSv1.2 (older versions are insecure)",
  })
  void rejectsBadValuesWithAMessageNamingTheSetting(String key, String value, String message) {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(key, value)));
    assertEquals(message, e.getMessage());
  }

  @Test
  void typedSettersMeetTheSameRulesAsProperties() {
    // Each rule lives on its ConfigProperty, so a value given in code is refused with the property's own message.
    assertRefused("securethrift.timeout.connect: '0s' must be greater than zero",
        SecurityConfig.builder().connectTimeout(Duration.ZERO));
    assertRefused("securethrift.tls.protocols: 'TLSv1.1' is not accepted; accepted values: TLSv1.3, TLSv1.2 (older"
        + " versions are insecure)", SecurityConfig.builder().tlsProtocols(List.of("TLSv1.1")));
    assertRefused("securethrift.sasl.qop: a level is listed twice in [auth, auth]",
        SecurityConfig.builder().qop(QualityOfProtection.AUTH, QualityOfProtection.AUTH));
    assertRefused("securethrift.sasl.kerberos.server.primary: 'accumulo/host' must be the primary alone, without"
        + " /host or @REALM", SecurityConfig.builder().serverPrimary("accumulo/host"));
    assertRefused("securethrift.limit.max.frame.size: 100 bytes is outside the accepted range 1K to 2147483639"
        + " bytes", SecurityConfig.builder().maxFrameSize(100));
  }

  private static void assertRefused(String message, SecurityConfig.Builder builder) {
    assertEquals(message, assertThrows(ConfigException.class, builder::build).getMessage());
  }

  @Test
  void everySettingDocumentsItsTypeAndWhatItAccepts() {
    for (ConfigProperty p : ConfigProperty.values()) {
      assertFalse(p.description().isBlank(), p.key());
      if (p.type() == ConfigProperty.Type.CHOICE) {
        assertFalse(p.accepted().isEmpty(), p.key() + " lists its choices");
      }
    }
    assertEquals("none, tls, sasl, sasl-over-tls", ConfigProperty.MODE.accepted());
    assertEquals("greater than 0", ConfigProperty.TIMEOUT_HANDSHAKE.accepted());
    assertTrue(ConfigProperty.TLS_KEYSTORE_PASSWORD.isSecret());
    assertFalse(ConfigProperty.TLS_KEYSTORE_PATH.isSecret());
  }

  @Test
  void messagesEscapeControlCharactersButKeysStayExact() {
    String key = "securethrift.mode\r\nsecurethrift.mode";
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(key, "x")));
    assertEquals("securethrift.mode\\r\\nsecurethrift.mode: unknown setting; see docs/configuration.md for the keys"
        + " securethrift reads", e.getMessage());
    assertEquals(key, e.key());
    assertEquals("unknown setting; see docs/configuration.md for the keys securethrift reads", e.problem());
  }

  @Test
  void explicitSuitesMustFollowTheSuiteRuleUnlessWeakOnesAreAllowed() {
    String accepted = "TLS_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,"
        + "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256";
    assertEquals(accepted, SecurityConfig.fromProperties(Map.of("securethrift.tls.cipher.suites",
        accepted)).toProperties().get("securethrift.tls.cipher.suites"));
    // AEAD without forward secrecy, forward secrecy without AEAD, and AEAD with ECDHE but no certificate (PSK): all
    // refused, named in the order given.
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(
        "securethrift.tls.cipher.suites", "TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_GCM_SHA256,"
            + "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256")));
    assertEquals("securethrift.tls.cipher.suites", e.key());
    assertEquals("securethrift.tls.cipher.suites: TLS_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,"
        + " TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256 are not suites securethrift accepts (only the TLS 1.3 suites"
        + " and TLS 1.2 ECDHE suites with ECDSA or RSA certificates and AES-GCM or ChaCha20-Poly1305); remove them,"
        + " or set securethrift.tls.allow.weak.cipher.suites=true for peers that support nothing better",
        e.getMessage());

    SecurityConfig allowed = SecurityConfig.fromProperties(Map.of("securethrift.tls.cipher.suites",
        "TLS_RSA_WITH_AES_128_CBC_SHA", "securethrift.tls.allow.weak.cipher.suites", "true"));
    assertEquals(List.of("TLS_RSA_WITH_AES_128_CBC_SHA"), allowed.tls().cipherSuites());
    assertTrue(allowed.tls().allowWeakCipherSuites());
    assertEquals(allowed.toProperties(), allowed.toBuilder().build().toProperties());
  }

  @ParameterizedTest
  @CsvSource({"want", "need"})
  void clientAuthNeedsATrustStore(String clientAuth) throws IOException {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(
        "securethrift.mode", "tls", "securethrift.tls.client.auth", clientAuth)));
    assertEquals("securethrift.tls.client.auth", e.key());
    assertEquals("securethrift.tls.client.auth: '" + clientAuth + "' asks TLS clients for certificates, but"
        + " securethrift.tls.truststore.path is empty, so the JVM's default trust store (the public CAs) would vouch"
        + " for them and their names would become principals; set securethrift.tls.truststore.path to the trust"
        + " store holding the CA that issues client certificates", e.getMessage());

    Path trustStore = Files.writeString(dir.resolve("ca.pem"), "x");
    assertEquals(ClientAuth.parse("k", clientAuth), SecurityConfig.fromProperties(Map.of("securethrift.mode",
        "sasl-over-tls", "securethrift.tls.client.auth", clientAuth, "securethrift.tls.truststore.path",
        trustStore.toString())).tls().clientAuth());
    // Without TLS the TLS settings are not used, so their rules do not apply.
    assertEquals(SecurityMode.SASL, SecurityConfig.fromProperties(Map.of("securethrift.mode", "sasl",
        "securethrift.tls.client.auth", clientAuth)).mode());
  }

  @Test
  void keyStorePathThatIsADirectoryIsRejected() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of("securethrift.tls.truststore.path", dir.toString())));
    assertEquals("securethrift.tls.truststore.path: " + dir + " is not a readable file", e.getMessage());
    assertEquals("securethrift.tls.truststore.path", e.key());
  }

  @Test
  void qopListParsesInPreferenceOrder() {
    assertEquals(List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT, QualityOfProtection.AUTH),
        QualityOfProtection.parseList("k", " auth-conf , auth-int,auth "));
    assertEquals("auth-conf,auth", QualityOfProtection.toSaslProperty(
        List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH)));
  }
}
