package io.securethrift.bench.sasl;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.ModeSet;
import io.securethrift.harness.WorkDirectory;
import io.securethrift.tls.internal.ConscryptProvider;
import java.io.IOException;
import java.security.Provider;
import java.time.Duration;

/**
 * The Kerberos side of a SASL benchmark: the harness's KDC ({@link BenchSecurity}) in the benchmark JVM with the
 * service principal {@code accumulo/localhost} and a client, and the server and client configurations for a mode.
 */
final class SaslKerberos implements AutoCloseable {
  /**
   * The modes sasl-bench privacy compares: {@code none}; GSS {@code sasl-auth-conf}; AES-GCM privacy with the JDK's
   * cipher ({@code -gcm}), Conscrypt's (BoringSSL's, {@code -gcm-conscrypt}) or the Amazon Corretto Crypto Provider's
   * (AWS-LC's, {@code -gcm-accp}) on both sides; unmodified libthrift SASL transports on both ends with
   * {@code SecureThriftSaslProvider} installed ({@code -provider}, {@link LibthriftSaslFixture}: what unmodified
   * Accumulo gets from the provider), with standard Kerberos wrap tokens ({@code sasl-auth-conf-libthrift}: what
   * unmodified Accumulo gets today) and at {@code auth} ({@code sasl-auth-libthrift}: SASL frames with nothing
   * wrapped, the most any mechanism could give a connection through them); and TLS on JSSE and Conscrypt.
   */
  static final ModeSet MODES = ModeSet.of("sasl-bench privacy", null, "none", "sasl-auth-conf", "sasl-auth-conf-gcm",
      "sasl-auth-libthrift", "sasl-auth-conf-libthrift", "sasl-auth-conf-provider", "sasl-auth-conf-gcm-conscrypt",
      "sasl-auth-conf-gcm-accp", "tls-jsse", "tls-conscrypt");
  /**
   * How long a connection may wait for its next call: every mode's connection stays open while the others take their
   * turns, and with {@code --warm-up 60} a connection waited three minutes for its first measured call (at 60 s the
   * server closed it, and the run failed).
   */
  private static final Duration IDLE_BETWEEN_TURNS = Duration.ofMinutes(30);
  private final WorkDirectory dir;
  private final BenchSecurity security;

  SaslKerberos() throws IOException {
    dir = WorkDirectory.create("sasl-bench-");
    security = new BenchSecurity(dir.path());
  }

  /** {@code none} is the plain framed baseline; anything else a SASL mode on securethrift's transports. */
  SecurityConfig server(BenchMode mode) {
    return mode.sasl() ? security.kerberos(sasl(mode), true).build() : plain();
  }

  SecurityConfig client(BenchMode mode) {
    return mode.sasl() ? security.kerberos(sasl(mode), false).build() : plain();
  }

  /** A libthrift mode's set-up ({@link BenchMode#onLibthrift()}): libthrift's transports, this KDC's principals. */
  LibthriftSaslFixture libthrift(BenchMode mode) throws Exception {
    return LibthriftSaslFixture.start(security.servicePrincipal(), security.clientPrincipal(), mode.qop(),
        mode.layer() == BenchMode.SaslLayer.PROVIDER ? SaslPrivacy.AES_GCM_PREFERRED : SaslPrivacy.GSS);
  }

  private static SecurityConfig plain() {
    return SecurityConfig.builder().maxFrameSize(4L << 20).readTimeout(IDLE_BETWEEN_TURNS).build();
  }

  /**
   * A SASL mode: its QOP, and with an AES-GCM layer {@code securethrift.sasl.privacy=aes-gcm}, the cipher from the
   * JVM's provider list (the JDK's) or, with {@code -gcm-conscrypt} or {@code -gcm-accp}, from that provider.
   */
  private static SecurityConfig.Builder sasl(BenchMode mode) {
    Provider provider = mode.layer() == BenchMode.SaslLayer.AES_GCM_CONSCRYPT ? conscrypt()
        : mode.layer() == BenchMode.SaslLayer.AES_GCM_ACCP ? accp() : null;
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI).qop(mode.qop())
        .saslPrivacy(mode.aesGcm() ? SaslPrivacy.AES_GCM : SaslPrivacy.GSS)
        .saslPrivacyProvider(provider)
        .maxFrameSize(4L << 20).readTimeout(IDLE_BETWEEN_TURNS);
  }

  /** Conscrypt's provider, the JVM's one (securethrift-tls's), created only by the mode that uses it. */
  static Provider conscrypt() {
    return ConscryptProvider.instance();
  }

  /** The Amazon Corretto Crypto Provider, or a message saying why its native library did not load here. */
  static Provider accp() {
    Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
    if (error != null) {
      throw new IllegalStateException("the Amazon Corretto Crypto Provider (mode sasl-auth-conf-gcm-accp) does"
          + " not load on this machine: its native library ships for Linux on x86-64 and aarch64 only: " + error,
          error);
    }
    return AmazonCorrettoCryptoProvider.INSTANCE;
  }

  @Override
  public void close() {
    security.close();
    dir.close();
  }
}
