package io.securethrift.harness;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The real security material every benchmark's modes run on: an in-process Kerberos KDC with a service principal
 * ({@code accumulo/localhost}) and a client principal ({@code ingest}), and a test CA (RSA 2048 unless another
 * {@link KeyType} is asked for, the CA and both leaves of the same type) with server and client certificates in
 * PKCS12 stores sharing one random password, the CA's certificate and both leaves' as PEM too ({@link #files}, which
 * child JVMs read back); and each {@link BenchMode}'s configuration made of them
 * ({@link #config}). The KDC starts when first needed; closing this stops it.
 */
public final class BenchSecurity implements AutoCloseable {
  /** The host every server is addressed by, as named in its certificate and service principal. */
  public static final String HOST = EmbeddedKdc.HOST;
  public static final String SERVICE_PRIMARY = "accumulo";
  /** The common name of the client certificate. */
  private static final String CLIENT_NAME = "ingest";

  private final EmbeddedKdc.Builder kdcSettings;
  /** Started at the first use: a benchmark of TLS alone never waits for a KDC. */
  private Kerberos kerberos;
  private final CertificateFiles files;
  private final TestCertificateAuthority ca;

  public BenchSecurity(Path dir) {
    this(dir, EmbeddedKdc.builder());
  }

  /** Material from a KDC built as {@code kdc} says (the fault runs' short ticket lifetimes). */
  public BenchSecurity(Path dir, EmbeddedKdc.Builder kdcSettings) {
    this(dir, kdcSettings, KeyType.RSA);
  }

  private BenchSecurity(Path dir, EmbeddedKdc.Builder kdcSettings, KeyType keyType) {
    this.kdcSettings = kdcSettings;
    this.ca = TestCertificateAuthority.create(TestCertificateAuthority.DEFAULT_COMMON_NAME, keyType);
    byte[] random = new byte[12];
    new SecureRandom().nextBytes(random);
    this.files = new CertificateFiles(dir, Secret.of(HexFormat.of().formatHex(random)));
    char[] password = files.password().chars();
    IssuedCertificate server = serverCertificate(ca, keyType);
    server.writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, password);
    server.writePem(dir, "server", null);
    IssuedCertificate client = clientCertificate(ca, keyType);
    client.writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, password);
    client.writePem(dir, "client", null);
    ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, password);
    ca.writeCaPem(dir);
    Arrays.fill(password, '\0');
  }

  /**
   * Writes a fresh CA's certificate files into {@code dir} for benchmarks of TLS alone, which need no KDC: the files
   * of {@code new BenchSecurity(dir)}, with nothing left to close.
   */
  public static CertificateFiles certificates(Path dir) {
    return certificates(dir, KeyType.RSA);
  }

  /** As {@link #certificates(Path)}, the CA and both leaves holding {@code keyType} keys. */
  public static CertificateFiles certificates(Path dir, KeyType keyType) {
    try (BenchSecurity security = new BenchSecurity(dir, EmbeddedKdc.builder(), keyType)) {
      return security.files();
    }
  }

  /** The KDC and its two principals. */
  private record Kerberos(EmbeddedKdc kdc, KerberosIdentity service, KerberosIdentity client) {}

  private synchronized Kerberos kerberos() {
    if (kerberos == null) {
      EmbeddedKdc kdc = kdcSettings.start();
      try {
        kerberos = new Kerberos(kdc, kdc.servicePrincipal(SERVICE_PRIMARY, HOST), kdc.principal("ingest"));
      } catch (RuntimeException e) {
        kdc.close();
        throw e;
      }
    }
    return kerberos;
  }

  /** The krb5.conf child JVMs must be started with (this starts the KDC if it is not running yet). */
  public Path krb5Conf() {
    return kerberos().kdc().krb5Conf();
  }

  /** The running KDC, for backends that need more principals. */
  public EmbeddedKdc kdc() {
    return kerberos().kdc();
  }

  public KerberosIdentity servicePrincipal() {
    return kerberos().service();
  }

  public KerberosIdentity clientPrincipal() {
    return kerberos().client();
  }

  /** The CA that issued the certificates, for benchmarks that issue more (the fault runs' rotations). */
  public TestCertificateAuthority ca() {
    return ca;
  }

  /** A server certificate as the one in {@link #serverKeyStore()}, from {@code authority}. */
  public static IssuedCertificate serverCertificate(TestCertificateAuthority authority) {
    return serverCertificate(authority, KeyType.RSA);
  }

  private static IssuedCertificate serverCertificate(TestCertificateAuthority authority, KeyType keyType) {
    return authority.leaf().commonName(HOST).keyType(keyType).issue();
  }

  /** A client certificate as the one in {@link #clientKeyStore()}, from {@code authority}. */
  public static IssuedCertificate clientCertificate(TestCertificateAuthority authority) {
    return clientCertificate(authority, KeyType.RSA);
  }

  private static IssuedCertificate clientCertificate(TestCertificateAuthority authority, KeyType keyType) {
    return authority.leaf().commonName(CLIENT_NAME).keyType(keyType).issue();
  }

  /** The certificate files in the directory and their password, as a child JVM reads them back. */
  public CertificateFiles files() {
    return files;
  }

  public Path serverKeyStore() {
    return files.serverKeyStore();
  }

  public Path clientKeyStore() {
    return files.clientKeyStore();
  }

  public Path trustStore() {
    return files.trustStore();
  }

  /** The password of every store above. */
  public Secret storePassword() {
    return files.password();
  }

  /**
   * One side of {@code mode}: TLS is two-way (client certificates required, as in Accumulo's published run) on the
   * mode's engine and version; SASL is Kerberos as the service (server) or the client at the mode's quality of
   * protection, with AES-GCM privacy where the mode's layer has it; SASL over TLS authenticates the server only.
   * Benchmarks add what is theirs (frame sizes, timeouts) to the builder.
   *
   * @throws IllegalArgumentException for a TLS mode that names no engine (see {@link ModeSet})
   */
  public SecurityConfig.Builder config(BenchMode mode, boolean server) {
    switch (mode.security()) {
      case NONE:
        return base(SecurityMode.NONE);
      case TLS: {
        SecurityConfig.Builder b = base(SecurityMode.TLS).tlsEngine(mode.engine()
            .orElseThrow(() -> new IllegalArgumentException("mode " + mode + " names no TLS engine")));
        mode.tlsVersion().ifPresent(version -> b.tlsProtocols(List.of(version)));
        return tls(b, server, true);
      }
      case SASL: {
        SecurityConfig.Builder b = kerberos(base(SecurityMode.SASL), server).qop(mode.qop());
        // libthrift's transports read only the login and the QOP; securethrift's server reads the privacy an
        // operator would set to meet the provider's clients.
        if (mode.layer() == BenchMode.SaslLayer.PROVIDER) {
          b.saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED);
        } else if (mode.layer().aesGcm()) {
          b.saslPrivacy(SaslPrivacy.AES_GCM);
        }
        return b;
      }
      default:
        return tls(kerberos(base(SecurityMode.SASL_OVER_TLS), server).qop(QualityOfProtection.AUTH)
            .tlsEngine(TlsEngine.AUTO), server, false);
    }
  }

  /** A TLS configuration: server certificate, and client certificates required if {@code mutual}. */
  public SecurityConfig.Builder tls(SecurityConfig.Builder b, boolean server, boolean mutual) {
    return files.tls(b, server, mutual);
  }

  /** A Kerberos configuration logging in as the service (server) or the ingest user (client). */
  public SecurityConfig.Builder kerberos(SecurityConfig.Builder b, boolean server) {
    KerberosIdentity who = server ? servicePrincipal() : clientPrincipal();
    return b.kerberosLogin(who.principal(), who.keytab()).serverPrimary(SERVICE_PRIMARY);
  }

  public static SecurityConfig.Builder base(SecurityMode mode) {
    return SecurityConfig.builder().mode(mode);
  }

  @Override
  public synchronized void close() {
    if (kerberos != null) {
      kerberos.kdc().close();
    }
  }
}
