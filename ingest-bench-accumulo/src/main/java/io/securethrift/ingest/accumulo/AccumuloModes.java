package io.securethrift.ingest.accumulo;

import io.securethrift.accumulo.conscrypt.ConscryptDropIn;
import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.accumulo.mac.KerberizedCluster;
import io.securethrift.accumulo.mac.ServerSecurityFile;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.ModeSet;
import io.securethrift.ingest.bench.IngestBackend;
import io.securethrift.sasl.SaslProviderDropIn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * The accumulo backend's modes: the security levels of Accumulo's own published comparison, each as the site and
 * client properties a MiniAccumuloCluster needs for it. TLS is two-way (client certificates), as in Accumulo's run;
 * {@code tls-conscrypt} has the servers' TLS from Conscrypt through the drop-in ({@link ConscryptDropIn});
 * {@code sasl-auth-conf-provider} has {@code SecureThriftSaslProvider} in every server JVM through its security file
 * and in the benchmark's JVM, where Accumulo's client runs: unmodified Accumulo, AES-GCM privacy.
 */
final class AccumuloModes {
  static final ModeSet MODES = ModeSet.of("the accumulo backend", IngestBackend.TLS_ENGINE, "none", "tls-jsse",
      "tls-conscrypt", "sasl-auth", "sasl-auth-int", "sasl-auth-conf", "sasl-auth-conf-provider");

  private AccumuloModes() {}

  /** Whether the client must have the SASL provider installed in its JVM. */
  static boolean saslProvider(BenchMode mode) {
    return mode.sasl() && mode.layer() == BenchMode.SaslLayer.PROVIDER;
  }

  /** Why an existing instance's client file does not run {@code mode}, if it does not. */
  static Optional<String> mismatch(BenchMode mode, SecurityConfig clientFile) {
    if (clientFile.mode() != mode.security()) {
      return Optional.of("the client file is " + clientFile.mode() + ", mode " + mode + " needs " + mode.security());
    }
    if (mode.sasl() && !clientFile.sasl().qop().equals(List.of(mode.qop()))) {
      return Optional.of("the client file's sasl.qop is " + clientFile.sasl().qop() + ", mode " + mode
          + " needs " + mode.qop());
    }
    return Optional.empty();
  }

  /**
   * Sets {@code mode}'s site and client properties; the client logs in as the benchmark's {@code ingest} user. TLS
   * stores (see {@link ClusterCertificates}) and the drop-in's security file are written into {@code dir}.
   *
   * @return the TLS levels' certificates, empty for the others
   */
  static Optional<ClusterCertificates> configure(BenchMode mode, MiniAccumuloConfigImpl config,
      BenchSecurity security, Path dir) {
    Optional<ClusterCertificates> certificates = Optional.empty();
    if (mode.tls()) {
      certificates = Optional.of(ClusterCertificates.issue(dir, security.storePassword().chars()));
      certificates.get().configure(config, security.storePassword().chars());
    } else if (mode.sasl()) { // servers as accumulo/localhost, the benchmark's ingest principal as root
      KerberizedCluster.configure(config, security.servicePrincipal(), security.clientPrincipal(),
          security.krb5Conf(), mode.qop().toString());
    }
    boolean conscrypt = mode.tls() && mode.engine().orElseThrow().equals(TlsEngine.CONSCRYPT);
    try {
      if (conscrypt || saslProvider(mode)) {
        ServerSecurityFile.install(config, DropInSecurityFile.write(dir.resolve("drop-in.security"),
            List.of(conscrypt ? ConscryptDropIn.NAME : SaslProviderDropIn.NAME)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + mode + "'s security file into " + dir, e);
    }
    return certificates;
  }
}
