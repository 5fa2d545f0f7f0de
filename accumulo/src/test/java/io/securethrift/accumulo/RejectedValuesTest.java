package io.securethrift.accumulo;

import static io.securethrift.accumulo.Stores.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every value Accumulo's files may hold that securethrift rejects, with the exact message an operator sees. */
class RejectedValuesTest {
  @TempDir Path dir;
  private ConfigFixture fixture;
  private String site;
  private String clientProperties;

  @BeforeEach
  void stores() {
    fixture = new ConfigFixture(dir, "server");
    site = " (in " + dir.resolve("accumulo-site.xml") + ")";
    clientProperties = " (in " + dir.resolve("accumulo-client.properties") + ")";
  }

  private static void rejected(String key, String message, Supplier<?> read) {
    ConfigException e = assertThrows(ConfigException.class, read::get);
    assertEquals(key, e.key());
    assertEquals(key + ": " + message, e.getMessage());
    assertFalse(e.getMessage().contains(new String(Stores.KEY_PASSWORD)), "no secret in messages");
  }

  /** {@code key=value} alone in accumulo-site.xml is rejected with {@code message}. */
  private void siteRejects(String key, String value, String message) {
    rejected(key, message + site, () -> fixture.site(props(key, value)));
  }

  /** {@code key=value} alone in accumulo-client.properties is rejected with {@code message}. */
  private void clientPropertiesRejects(String key, String value, String message) {
    rejected(key, message + clientProperties, () -> fixture.clientProperties(props(key, value)));
  }

  @Test
  void malformedBoolean() {
    siteRejects("instance.rpc.ssl.enabled", "yes", "'yes' is not accepted; accepted values: true, false");
    siteRejects("instance.rpc.ssl.clientAuth", "1", "'1' is not accepted; accepted values: true, false");
    clientPropertiesRejects("ssl.use.jsse", "", "'' is not accepted; accepted values: true, false");
  }

  @Test
  void qopIsExactAndCaseSensitive() {
    siteRejects("rpc.sasl.qop", "AUTH", "'AUTH' is not accepted; accepted values: auth, auth-int, auth-conf");
    clientPropertiesRejects("sasl.qop", "auth-conf,auth",
        "'auth-conf,auth' is not accepted; accepted values: auth, auth-int, auth-conf");
  }

  @Test
  void unknownRpcKeys() {
    String siteKeys = "unknown key for accumulo-site.xml (Accumulo 1.7); accepted keys:"
        + " instance.rpc.sasl.allowed.host.impersonation, instance.rpc.sasl.allowed.user.impersonation,"
        + " instance.rpc.sasl.enabled, instance.rpc.sasl.impersonation.*, instance.rpc.ssl.clientAuth,"
        + " instance.rpc.ssl.enabled, rpc.javax.net.ssl.keyStore, rpc.javax.net.ssl.keyStorePassword,"
        + " rpc.javax.net.ssl.keyStoreType, rpc.javax.net.ssl.trustStore, rpc.javax.net.ssl.trustStorePassword,"
        + " rpc.javax.net.ssl.trustStoreType, rpc.sasl.qop, rpc.ssl.cipher.suites, rpc.ssl.client.protocol,"
        + " rpc.ssl.server.enabled.protocols, rpc.useJsse";
    siteRejects("rpc.ssl.clientAuth", "true", siteKeys);
    siteRejects("rpc.backlog", "50", siteKeys);
    clientPropertiesRejects("ssl.keystore.alias", "me", "unknown key for accumulo-client.properties (Accumulo 2.x);"
        + " accepted keys: rpc.transport.idle.timeout, sasl.enabled, sasl.kerberos.server.primary, sasl.qop,"
        + " ssl.enabled, ssl.keystore.password, ssl.keystore.path, ssl.keystore.type, ssl.truststore.password,"
        + " ssl.truststore.path, ssl.truststore.type, ssl.use.jsse");
  }

  @Test
  void malformedDurations() {
    siteRejects("general.rpc.timeout", "soon", "'soon' is not a duration; write a whole number with a unit: ms, s,"
        + " m, h or d (for example 30s); a bare number means seconds");
    siteRejects("general.kerberos.renewal.period", "0", "'0s' must be greater than zero");
  }

  @Test
  void storeTypes() {
    siteRejects("rpc.javax.net.ssl.keyStoreType", "jceks", "'jceks' is not accepted; accepted values: jks, pkcs12,"
        + " pem");
    clientPropertiesRejects("ssl.truststore.type", "p12", "'p12' is not accepted; accepted values: jks, pkcs12, pem");
  }

  @Test
  void cipherSuites() {
    siteRejects("rpc.ssl.cipher.suites", "tls_aes_128_gcm_sha256", "'tls_aes_128_gcm_sha256' is not a cipher suite"
        + " name; use IANA names such as TLS_AES_128_GCM_SHA256");
    String weak = "TLS_RSA_WITH_AES_128_CBC_SHA is not a suite securethrift accepts (only the TLS 1.3 suites and TLS"
        + " 1.2 ECDHE suites with ECDSA or RSA certificates and AES-GCM or ChaCha20-Poly1305); remove it, or set"
        + " securethrift.tls.allow.weak.cipher.suites=true for peers that support nothing better";
    rejected("rpc.ssl.cipher.suites", weak + site,
        () -> fixture.site(fixture.ssl("rpc.ssl.cipher.suites", "TLS_RSA_WITH_AES_128_CBC_SHA")));
    rejected("rpc.ssl.cipher.suites", weak + " (in " + dir.resolve("accumulo.properties") + ")",
        () -> fixture.accumuloProperties(props("rpc.ssl.cipher.suites", "TLS_RSA_WITH_AES_128_CBC_SHA")));
  }

  /** Accumulo has no FIPS key; securethrift.fips in its file works, and a refused suite is named by Accumulo's key. */
  @Test
  void fipsRefusalsNameAccumulosKey() {
    rejected("rpc.ssl.cipher.suites", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 (ChaCha20-Poly1305 is not a"
        + " FIPS-approved cipher): securethrift.fips=true admits only the TLS 1.3 AES-GCM suites and TLS 1.2 ECDHE"
        + " suites with AES-GCM; remove it, or set securethrift.fips=false" + site,
        () -> fixture.site(fixture.ssl("rpc.ssl.cipher.suites", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "securethrift.fips", "true")));
  }

  @Test
  void protocols() {
    siteRejects("rpc.ssl.server.enabled.protocols", "TLSv1.2,SSLv3", "'SSLv3' is not accepted; accepted values:"
        + " TLSv1.3, TLSv1.2 (TLSv1.1 and TLSv1 are read but JDK 17 disables them)");
    siteRejects("rpc.ssl.client.protocol", "TLSv1.2,TLSv1.3", "'TLSv1.2,TLSv1.3' names several protocols; this key"
        + " takes exactly one: TLSv1.3 or TLSv1.2");
    siteRejects("rpc.ssl.server.enabled.protocols", " ", "empty; give TLSv1.3, TLSv1.2 or both");
  }

  @Test
  void protocolsJdk17Disables() {
    rejected("rpc.ssl.client.protocol", "'TLSv1' (the default) names only protocols JDK 17 disables"
        + " (jdk.tls.disabledAlgorithms); set TLSv1.2 or TLSv1.3" + site,
        () -> fixture.site(fixture.ssl("rpc.ssl.client.protocol", "TLSv1").entrySet().stream()
            .filter(e -> !e.getKey().equals("rpc.ssl.client.protocol"))
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))));
    rejected("rpc.ssl.server.enabled.protocols", "'TLSv1,TLSv1.1' names only protocols JDK 17 disables"
        + " (jdk.tls.disabledAlgorithms); set TLSv1.2 or TLSv1.3" + site,
        () -> fixture.site(fixture.ssl("rpc.ssl.server.enabled.protocols", "TLSv1,TLSv1.1")));
  }

  @Test
  void sslWithSasl() {
    rejected("instance.rpc.sasl.enabled", "Cannot use both SSL and SASL (instance.rpc.ssl.enabled is true as well);"
        + " add securethrift.mode=sasl-over-tls to run Kerberos over TLS, which only securethrift peers understand"
        + site, () -> fixture.site(fixture.ssl("instance.rpc.sasl.enabled", "true")));
    rejected("sasl.enabled", "Cannot use both SSL and SASL (ssl.enabled is true as well); add"
        + " securethrift.mode=sasl-over-tls to run Kerberos over TLS, which only securethrift peers understand"
        + clientProperties, () -> fixture.clientProperties(props("ssl.enabled", "true", "sasl.enabled", "true")));
  }

  @Test
  void modeKey() {
    String onlyOptIn = "cannot be set in accumulo-site.xml (Accumulo 1.7); instance.rpc.ssl.enabled and"
        + " instance.rpc.sasl.enabled choose the mode, and only sasl-over-tls may be added, with both set to true";
    rejected("securethrift.mode", "'tls' " + onlyOptIn + site,
        () -> fixture.site(fixture.ssl("securethrift.mode", "tls")));
    rejected("securethrift.mode", "'sasl-over-tls' " + onlyOptIn + site,
        () -> fixture.site(fixture.ssl("securethrift.mode", "sasl-over-tls")));
    rejected("securethrift.mode", "'kerberos' is not accepted; accepted values: none, tls, sasl, sasl-over-tls" + site,
        () -> fixture.site(props("securethrift.mode", "kerberos")));
  }

  @Test
  void libraryKeysCannotOverrideAccumuloKeys() {
    rejected("securethrift.tls.keystore.path", "determined by Accumulo's rpc.javax.net.ssl.keyStore in"
        + " accumulo-site.xml (Accumulo 1.7); set that instead" + site,
        () -> fixture.site(fixture.ssl("securethrift.tls.keystore.path", fixture.keyStore().toString())));
    rejected("securethrift.tls.protocols", "determined by Accumulo's rpc.ssl.client.protocol and"
        + " rpc.ssl.server.enabled.protocols in accumulo-site.xml (Accumulo 1.7); set that instead" + site,
        () -> fixture.site(fixture.ssl("securethrift.tls.protocols", "TLSv1.3")));
    rejected("securethrift.timeout.read", "determined by Accumulo's general.rpc.timeout in client.conf"
        + " (Accumulo 1.7); set that instead (in " + dir.resolve("client.conf") + ")",
        () -> fixture.clientConf(props("securethrift.timeout.read", "1s")));
    rejected("securethrift.sasl.kerberos.principal", "determined by Accumulo's auth.principal in"
        + " accumulo-client.properties (Accumulo 2.x); set that instead" + clientProperties,
        () -> fixture.clientProperties(props("securethrift.sasl.kerberos.principal", "alice")));
  }

  @Test
  void qopPreferenceListMustKeepAccumulosLevel() {
    String message = "must list rpc.sasl.qop's level auth-int and may add only stronger levels, so securethrift still"
        + " talks to Accumulo and never accepts less" + site;
    rejected("securethrift.sasl.qop", "'auth-conf' " + message, () -> fixture.site(props(
        "instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-int", "securethrift.sasl.qop", "auth-conf")));
    rejected("securethrift.sasl.qop", "'auth-int,auth' " + message, () -> fixture.site(props(
        "instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-int", "securethrift.sasl.qop", "auth-int,auth")));
    rejected("securethrift.sasl.qop", "'auth-int' is listed twice" + site, () -> fixture.site(props(
        "rpc.sasl.qop", "auth-int", "securethrift.sasl.qop", "auth-int,auth-int")));
  }

  @Test
  void unknownAndMalformedLibraryKeys() {
    rejected("securethrift.tls.hostname.verify", "unknown setting; see docs/configuration.md for the keys securethrift"
        + " reads" + site, () -> fixture.site(props("securethrift.tls.hostname.verify", "false")));
    rejected("securethrift.tls.hostname.verification", "'maybe' is not accepted; accepted values: true, false" + site,
        () -> fixture.site(props("securethrift.tls.hostname.verification", "maybe")));
  }

  @Test
  void missingStores() {
    rejected("rpc.javax.net.ssl.keyStore", "'/nonexistent/keystore.jks' is neither a file nor a class-path resource"
        + site, () -> fixture.site(fixture.ssl("rpc.javax.net.ssl.keyStore", "/nonexistent/keystore.jks")));
    rejected("rpc.javax.net.ssl.trustStore", "'" + dir.resolve("ssl/truststore.jks") + "' is neither a file nor a"
        + " class-path resource (in " + dir.resolve("client.conf") + ")",
        () -> fixture.clientConf(props("instance.rpc.ssl.enabled", "true", "rpc.ssl.client.protocol", "TLSv1.2")));
    rejected("rpc.javax.net.ssl.keyStore", "empty; with instance.rpc.ssl.enabled=true Accumulo loads this store, so"
        + " give its path (or set rpc.useJsse=true to use the JVM's javax.net.ssl.* properties) (in "
        + dir.resolve("accumulo.properties") + ")",
        () -> fixture.accumuloProperties(props("instance.rpc.ssl.enabled", "true")));
    rejected("ssl.truststore.path", "empty; with ssl.enabled=true Accumulo loads this store, so give its path (or set"
        + " ssl.use.jsse=true to use the JVM's javax.net.ssl.* properties)" + clientProperties,
        () -> fixture.clientProperties(props("ssl.enabled", "true")));
  }

  @Test
  void missingJsseStore() {
    Properties jvm = new Properties();
    jvm.setProperty("javax.net.ssl.trustStore", "/nonexistent/cacerts");
    rejected("javax.net.ssl.trustStore", "file /nonexistent/cacerts does not exist (JVM system property, read because"
        + " rpc.useJsse=true)", () -> fixture.systemProperties(jvm).site(props("instance.rpc.ssl.enabled", "true",
        "rpc.useJsse", "true", "rpc.ssl.client.protocol", "TLSv1.2")));
    jvm.setProperty("javax.net.ssl.trustStore", fixture.trustStore().toString());
    jvm.setProperty("javax.net.ssl.trustStoreType", "jceks");
    rejected("javax.net.ssl.trustStoreType", "'jceks' is not accepted; accepted values: jks, pkcs12, pem (JVM system"
        + " property, read because rpc.useJsse=true)", () -> fixture.systemProperties(jvm).site(props(
        "instance.rpc.ssl.enabled", "true", "rpc.useJsse", "true", "rpc.ssl.client.protocol", "TLSv1.2")));
  }

  @Test
  void clientAuthWithJvmStoresNeedsTheJvmTrustStoreProperty() {
    Properties jvm = new Properties();
    jvm.setProperty("javax.net.ssl.keyStore", fixture.keyStore().toString());
    jvm.setProperty("javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD));
    rejected("instance.rpc.ssl.clientAuth", "true, but with rpc.useJsse=true the trust store is the JVM system"
        + " property javax.net.ssl.trustStore, which is not set (rpc.javax.net.ssl.trustStore is not read), so the"
        + " JVM's default trust store (the public CAs) would vouch for client certificates; start the JVM with"
        + " -Djavax.net.ssl.trustStore=<the trust store holding the CA that issues client certificates>" + site,
        () -> fixture.systemProperties(jvm).site(props("instance.rpc.ssl.enabled", "true", "rpc.useJsse", "true",
            "instance.rpc.ssl.clientAuth", "true", "rpc.javax.net.ssl.trustStore", fixture.trustStore().toString(),
            "rpc.ssl.client.protocol", "TLSv1.2")));
  }

  @Test
  void kerberosLogin() throws IOException {
    rejected("general.kerberos.keytab", "file /nonexistent/accumulo.keytab does not exist" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", "general.kerberos.principal",
            "accumulo/_HOST@EXAMPLE.COM", "general.kerberos.keytab", "/nonexistent/accumulo.keytab")));
    rejected("general.kerberos.keytab", "empty, but securethrift.sasl.kerberos.principal is set; give the keytab to"
        + " log in from" + site, () -> fixture.site(props("instance.rpc.sasl.enabled", "true",
        "general.kerberos.principal", "accumulo/_HOST@EXAMPLE.COM")));
    Path keytab = Files.writeString(dir.resolve("a.keytab"), "keytab");
    rejected("general.kerberos.principal", "'accumulo/@EXAMPLE.COM' is not a Kerberos principal: expected primary,"
        + " primary/instance or either with @REALM, no part empty" + site, () -> fixture.site(props(
        "instance.rpc.sasl.enabled", "true", "general.kerberos.principal", "accumulo/@EXAMPLE.COM",
        "general.kerberos.keytab", keytab.toString())));
    rejected("general.kerberos.principal", "empty, but general.kerberos.keytab is set; give the principal whose keys"
        + " the keytab holds" + site, () -> fixture.site(props("instance.rpc.sasl.enabled", "true",
        "general.kerberos.keytab", keytab.toString())));
    rejected("kerberos.server.primary", "'accumulo/host' must be the primary alone, without /host or @REALM (in "
        + dir.resolve("client.conf") + ")", () -> fixture.clientConf(props("instance.rpc.sasl.enabled", "true",
        "kerberos.server.primary", "accumulo/host")));
  }

  @Test
  void impersonationRules() {
    String users = "instance.rpc.sasl.allowed.user.impersonation";
    String hosts = "instance.rpc.sasl.allowed.host.impersonation";
    String legacyUsers = "instance.rpc.sasl.impersonation.a.users";
    String legacyHosts = "instance.rpc.sasl.impersonation.a.hosts";
    String oneHostListPerRule = "give one host list (host1,host2 or *) per proxy rule, in the same order, separated"
        + " by ;";
    // The syntax, checked by core's ImpersonationRules (whose own test has every case), named under the
    // Accumulo key and file.
    rejected(users, "'alice' is not a rule; write proxy:user1,user2 or proxy:*, rules separated by ;" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", users, "alice", hosts, "*")));
    rejected(hosts, "has 1 entry but " + users + " has 2 entries; " + oneHostListPerRule + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", users, "a:*;b:c", hosts, "*")));
    rejected(hosts, "has 0 entries but " + users + " has 1 entry; " + oneHostListPerRule + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", users, "a:*")));
    rejected(hosts, "set, but " + users + " is empty; " + oneHostListPerRule + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", hosts, "*")));
    rejected(users, "'b,,c' has an empty name; separate names with single commas" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", users, "a:b,,c", hosts, "*")));
    // Accumulo 1.7.0's per-user form: its keys, then the same syntax under the per-user key that holds it.
    rejected(users, "set together with instance.rpc.sasl.impersonation.*; use one form or the other" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", users, "a:*", hosts, "*",
            legacyUsers, "*", legacyHosts, "*")));
    rejected(legacyHosts, "empty or missing; give a comma-separated list or *" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", legacyUsers, "*")));
    rejected("instance.rpc.sasl.impersonation.a", "not an impersonation key; write"
        + " instance.rpc.sasl.impersonation.<user>.users and instance.rpc.sasl.impersonation.<user>.hosts" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", "instance.rpc.sasl.impersonation.a", "*")));
    rejected("instance.rpc.sasl.impersonation.a;b.users", "the user name 'a;b' holds ':' or ';'; name a Kerberos"
        + " principal" + site, () -> fixture.site(props("instance.rpc.sasl.enabled", "true",
            "instance.rpc.sasl.impersonation.a;b.users", "*", "instance.rpc.sasl.impersonation.a;b.hosts", "*")));
    rejected(legacyHosts, "holds ';'; give a comma-separated list or *" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", legacyUsers, "*", legacyHosts, "h1;h2")));
    rejected(legacyUsers, "'*,bob' mixes * with names; use * alone" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", legacyUsers, "*,bob", legacyHosts, "*")));
    rejected(legacyHosts, "'h1,,h2' has an empty name; separate names with single commas" + site,
        () -> fixture.site(props("instance.rpc.sasl.enabled", "true", legacyUsers, "bob", legacyHosts, "h1,,h2")));
  }

  @Test
  void siteXmlStructure() {
    Path file = fixture.write("accumulo-site.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE configuration [<!ENTITY x"
        + " SYSTEM \"file:///etc/passwd\">]>\n<configuration><property><name>a</name><value>&x;</value></property>"
        + "</configuration>\n");
    ConfigException doctype = assertThrows(ConfigException.class, () -> AccumuloSecurityConfig.fromSiteXml(file));
    assertEquals(file.toString(), doctype.key());
    assertTrue(doctype.getMessage().startsWith(file + ": not well-formed XML at line 2: "), doctype.getMessage());
    fixture.write("accumulo-site.xml", "<properties/>");
    rejected(file.toString(), "the root element is <properties>; a Hadoop configuration file has <configuration>",
        () -> AccumuloSecurityConfig.fromSiteXml(file));
    fixture.write("accumulo-site.xml", "<configuration><property><value>x</value></property></configuration>");
    rejected(file.toString(), "property number 1 has no <name>", () -> AccumuloSecurityConfig.fromSiteXml(file));
    fixture.write("accumulo-site.xml", "<configuration><property><name>rpc.sasl.qop</name><value>auth</value>"
        + "</property><property><name>rpc.sasl.qop</name><value>auth-conf</value></property></configuration>");
    rejected("rpc.sasl.qop", "set twice" + site, () -> AccumuloSecurityConfig.fromSiteXml(file));
  }

  @Test
  void unreadableContentIsAConfigErrorNamingTheFile() throws IOException {
    Path xml = fixture.write("accumulo-site.xml", "<?xml version=\"1.0\" encoding=\"UTF-6\"?>\n<configuration/>\n");
    rejected(xml.toString(), "declares the encoding UTF-6, which this JVM cannot read; write it in UTF-8",
        () -> AccumuloSecurityConfig.fromSiteXml(xml));
    Path conf = fixture.write("client.conf", "instance.name=\\u00\n");
    // The JDK's own backslash, escaped as every backslash in a message is (PeerText), once.
    rejected(conf.toString(), "not a valid properties file: Malformed \\\\uxxxx encoding.",
        () -> AccumuloSecurityConfig.fromClientConf(conf));
    Path latin1 = Files.write(dir.resolve("accumulo.properties"), new byte[] {'a', '=', (byte) 0xe9, '\n'});
    rejected(latin1.toString(), "not UTF-8 text; Accumulo's properties files are read as UTF-8",
        () -> AccumuloSecurityConfig.fromAccumuloProperties(latin1));
  }

  @Test
  void pathsWithNulAreRejectedNamingTheKey() {
    String trustStore = "rpc.javax.net.ssl.trustStore";
    // XML cannot carry a NUL at all; accumulo.properties can.
    rejected(trustStore, "'/etc/ssl/trust\\u0000.jks' is neither a file nor a class-path resource (in "
        + dir.resolve("accumulo.properties") + ")",
        () -> fixture.accumuloProperties(fixture.ssl(trustStore, "/etc/ssl/trust\u0000.jks")));
    rejected("auth.token", "'/etc/alice\\u0000.keytab' is not a file path: Nul character not allowed"
        + clientProperties, () -> fixture.clientProperties(props("sasl.enabled", "true", "auth.type", "kerberos",
            "auth.principal", "alice@EXAMPLE.COM", "auth.token", "/etc/alice\u0000.keytab")));
  }
}
