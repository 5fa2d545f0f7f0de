package io.securethrift.ingest.bench;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.StoreType;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;

/**
 * The real security material every level of the benchmark runs on, whatever the backend: an in-process Kerberos KDC
 * with a service principal ({@code accumulo/localhost}) and a client principal ({@code ingest}), and a test CA with
 * server and client certificates in PKCS12 stores sharing one password. Closing it stops the KDC.
 */
public final class BenchSecurity implements AutoCloseable {
  /** The host every server is addressed by, as named in its certificate and service principal. */
  public static final String HOST = EmbeddedKdc.HOST;
  public static final String SERVICE_PRIMARY = "accumulo";

  private final EmbeddedKdc kdc;
  private final KerberosIdentity service;
  private final KerberosIdentity client;
  private final Path serverKeyStore;
  private final Path clientKeyStore;
  private final Path trustStore;
  private final Secret password = Secret.of("bench-" + Long.toHexString(System.nanoTime()));
  private final TestCertificateAuthority ca;

  BenchSecurity(Path dir) {
    this(dir, EmbeddedKdc.builder());
  }

  /** Material from a KDC built as {@code kdc} says (the fault runs' short ticket lifetimes). */
  BenchSecurity(Path dir, EmbeddedKdc.Builder kdcSettings) {
    this.kdc = kdcSettings.start();
    try {
      this.service = kdc.servicePrincipal(SERVICE_PRIMARY, HOST);
      this.client = kdc.principal("ingest");
      this.ca = TestCertificateAuthority.create();
      IssuedCertificate server = serverCertificate(ca);
      IssuedCertificate user = clientCertificate(ca);
      this.serverKeyStore = server.writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, password.chars());
      this.clientKeyStore = user.writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, password.chars());
      this.trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, password.chars());
    } catch (RuntimeException e) {
      kdc.close();
      throw e;
    }
  }

  /** The krb5.conf child JVMs must be started with. */
  public Path krb5Conf() {
    return kdc.krb5Conf();
  }

  /** The running KDC, for backends that need more principals. */
  public EmbeddedKdc kdc() {
    return kdc;
  }

  public KerberosIdentity servicePrincipal() {
    return service;
  }

  public KerberosIdentity clientPrincipal() {
    return client;
  }

  /** The stores above, as fault runs rotate them. */
  CertificateRotation.Stores rotationStores() {
    return new CertificateRotation.Stores(ca, serverKeyStore, clientKeyStore, trustStore, password,
        BenchSecurity::serverCertificate, BenchSecurity::clientCertificate);
  }

  private static IssuedCertificate serverCertificate(TestCertificateAuthority authority) {
    return authority.leaf().commonName(HOST).issue();
  }

  private static IssuedCertificate clientCertificate(TestCertificateAuthority authority) {
    return authority.leaf().commonName("ingest").issue();
  }

  public Path serverKeyStore() {
    return serverKeyStore;
  }

  public Path clientKeyStore() {
    return clientKeyStore;
  }

  public Path trustStore() {
    return trustStore;
  }

  /** The password of every store above. */
  public Secret storePassword() {
    return password;
  }

  /** A TLS configuration: server certificate, and client certificates required (two-way TLS, as Accumulo's run). */
  SecurityConfig.Builder tls(SecurityConfig.Builder b, boolean server, boolean mutual) {
    b.trustStore(trustStore, StoreType.PKCS12, password);
    if (server) {
      b.keyStore(serverKeyStore, StoreType.PKCS12, password)
          .clientAuth(mutual ? ClientAuth.NEED : ClientAuth.NONE);
    } else if (mutual) {
      b.keyStore(clientKeyStore, StoreType.PKCS12, password);
    }
    return b;
  }

  /** A Kerberos configuration logging in as the service (server) or the ingest user (client). */
  SecurityConfig.Builder kerberos(SecurityConfig.Builder b, boolean server) {
    KerberosIdentity who = server ? service : client;
    return b.kerberosLogin(who.principal(), who.keytab()).serverPrimary(SERVICE_PRIMARY);
  }

  static SecurityConfig.Builder base(SecurityMode mode) {
    return SecurityConfig.builder().mode(mode);
  }

  @Override
  public void close() {
    kdc.close();
  }
}
