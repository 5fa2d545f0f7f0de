package io.securethrift.ingest.accumulo;

import io.securethrift.accumulo.conscrypt.ConscryptDropIn;
import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.accumulo.mac.KerberizedCluster;
import io.securethrift.accumulo.mac.ServerSecurityFile;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.ingest.bench.BenchSecurity;
import io.securethrift.sasl.SaslProviderDropIn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * The security levels of Accumulo's own published comparison, each as the site and client properties a
 * MiniAccumuloCluster needs for it. TLS is two-way (client certificates), as in Accumulo's run.
 */
enum AccumuloMode {
  NONE("none", SecurityMode.NONE, null),
  TLS_JSSE("tls-jsse", SecurityMode.TLS, null),
  /** As {@link #TLS_JSSE}, with the servers' TLS from Conscrypt through the drop-in ({@link ConscryptDropIn}). */
  TLS_CONSCRYPT("tls-conscrypt", SecurityMode.TLS, null),
  SASL_AUTH("sasl-auth", SecurityMode.SASL, QualityOfProtection.AUTH),
  SASL_AUTH_INT("sasl-auth-int", SecurityMode.SASL, QualityOfProtection.AUTH_INT),
  SASL_AUTH_CONF("sasl-auth-conf", SecurityMode.SASL, QualityOfProtection.AUTH_CONF),
  /**
   * As {@link #SASL_AUTH_CONF}, with {@link SecureThriftSaslProvider} in every server JVM through its security file and
   * in the benchmark's JVM, where Accumulo's client runs: unmodified Accumulo, AES-GCM privacy.
   */
  SASL_AUTH_CONF_PROVIDER("sasl-auth-conf-provider", SecurityMode.SASL, QualityOfProtection.AUTH_CONF);

  private final String token;
  private final SecurityMode security;
  private final QualityOfProtection qop;

  AccumuloMode(String token, SecurityMode security, QualityOfProtection qop) {
    this.token = token;
    this.security = security;
    this.qop = qop;
  }

  String token() {
    return token;
  }

  boolean kerberos() {
    return security == SecurityMode.SASL;
  }

  /** The level with this token; the harness has already checked it is one. */
  static AccumuloMode parse(String text) {
    return Arrays.stream(values()).filter(m -> m.token.equals(text)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not an accumulo mode: " + text));
  }

  /** Why an existing instance's client file does not run this level, if it does not. */
  Optional<String> mismatch(SecurityConfig clientFile) {
    if (clientFile.mode() != security) {
      return Optional.of("the client file is " + clientFile.mode() + ", mode " + token + " needs " + security);
    }
    if (qop != null && !clientFile.sasl().qop().equals(List.of(qop))) {
      return Optional.of("the client file's sasl.qop is " + clientFile.sasl().qop() + ", mode " + token
          + " needs " + qop);
    }
    return Optional.empty();
  }

  /**
   * Sets this level's site and client properties; the client logs in as the benchmark's {@code ingest} user. TLS
   * stores (see {@link ClusterCertificates}) and the drop-in's security file are written into {@code dir}.
   *
   * @return the TLS levels' certificates, empty for the others
   */
  Optional<ClusterCertificates> configure(MiniAccumuloConfigImpl config, BenchSecurity security, Path dir) {
    Optional<ClusterCertificates> certificates = Optional.empty();
    switch (this.security) {
      case TLS -> {
        certificates = Optional.of(ClusterCertificates.issue(dir, security.storePassword().chars()));
        certificates.get().configure(config, security.storePassword().chars());
      }
      case SASL -> // servers as accumulo/localhost, the benchmark's ingest principal as root
          KerberizedCluster.configure(config, security.servicePrincipal(), security.clientPrincipal(),
              security.krb5Conf(), qop.toString());
      default -> { }
    }
    try {
      if (this == TLS_CONSCRYPT || this == SASL_AUTH_CONF_PROVIDER) {
        ServerSecurityFile.install(config, DropInSecurityFile.write(dir.resolve("drop-in.security"),
            List.of(this == TLS_CONSCRYPT ? ConscryptDropIn.NAME : SaslProviderDropIn.NAME)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + this + "'s security file into " + dir, e);
    }
    return certificates;
  }

  /** Whether the client must have the SASL provider installed in its JVM. */
  boolean saslProvider() {
    return this == SASL_AUTH_CONF_PROVIDER;
  }

  boolean tls() {
    return security == SecurityMode.TLS;
  }

  @Override
  public String toString() {
    return token;
  }
}
