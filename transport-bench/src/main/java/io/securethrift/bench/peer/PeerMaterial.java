package io.securethrift.bench.peer;

import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What both sides of every cell share, written once by the parent and read by each cell's JVM: a server key store
 * and a trust store from a throw-away CA (PKCS#12, RSA 2048, the stores Accumulo's {@code TSSLTransportFactory} reads),
 * and, for the SASL modes, the Kerberos service {@code accumulo/localhost} and client principals with their keytabs.
 * Both libraries get the same files, so neither gets cheaper key material than the other.
 */
record PeerMaterial(Path keyStore, Path trustStore, String password, KerberosIdentity service,
    KerberosIdentity client) {
  /** The service name (Kerberos primary) Accumulo's servers run as. */
  static final String PRIMARY = "accumulo";
  /** The host clients dial and the certificate names. */
  static final String HOST = "localhost";
  private static final String PASSWORD = "peer-bench";

  /** Writes fresh stores into {@code dir}; the principals come from {@code kdc}, which is null without SASL modes. */
  static PeerMaterial create(Path dir, EmbeddedKdc kdc) {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    char[] pw = PASSWORD.toCharArray();
    Path keys = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, pw);
    Path trust = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, pw);
    return new PeerMaterial(keys, trust, PASSWORD, kdc == null ? null : kdc.servicePrincipal(PRIMARY, HOST),
        kdc == null ? null : kdc.principal("bench"));
  }

  Path write(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("keyStore", keyStore.toString());
    p.setProperty("trustStore", trustStore.toString());
    p.setProperty("password", password);
    if (service != null) {
      p.setProperty("service", service.principal());
      p.setProperty("serviceKeytab", service.keytab().toString());
      p.setProperty("client", client.principal());
      p.setProperty("clientKeytab", client.keytab().toString());
    }
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "peer-bench material");
    }
    return file;
  }

  static PeerMaterial read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    String service = p.getProperty("service");
    return new PeerMaterial(Path.of(p.getProperty("keyStore")), Path.of(p.getProperty("trustStore")),
        p.getProperty("password"),
        service == null ? null : new KerberosIdentity(service, Path.of(p.getProperty("serviceKeytab"))),
        service == null ? null : new KerberosIdentity(p.getProperty("client"), Path.of(p.getProperty("clientKeytab"))));
  }
}
