package io.securethrift.bench.peer;

import io.securethrift.harness.BenchSecurity;
import io.securethrift.testkit.KerberosIdentity;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What both sides of every cell share, written once by the parent and read by each cell's JVM: the server key store
 * and trust store of the harness's CA ({@link BenchSecurity}: PKCS#12, RSA 2048, the stores Accumulo's
 * {@code TSSLTransportFactory} reads), and, for the SASL modes, its Kerberos service {@code accumulo/localhost} and
 * client principals with their keytabs.
 * Both libraries get the same files, so neither gets cheaper key material than the other.
 */
record PeerMaterial(Path keyStore, Path trustStore, String password, KerberosIdentity service,
    KerberosIdentity client) {
  /** The service name (Kerberos primary) Accumulo's servers run as. */
  static final String PRIMARY = "accumulo";
  /** The host clients dial and the certificate names. */
  static final String HOST = "localhost";
  /** The stores of {@code security}, and its principals (starting its KDC) when a mode is {@code sasl}. */
  static PeerMaterial create(BenchSecurity security, boolean sasl) {
    return new PeerMaterial(security.serverKeyStore(), security.trustStore(),
        new String(security.storePassword().chars()), sasl ? security.servicePrincipal() : null,
        sasl ? security.clientPrincipal() : null);
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
