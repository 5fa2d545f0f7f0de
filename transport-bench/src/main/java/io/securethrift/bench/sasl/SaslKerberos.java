package io.securethrift.bench.sasl;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import java.security.Provider;
import java.time.Duration;
import org.conscrypt.Conscrypt;

/**
 * The Kerberos side of a SASL benchmark: an embedded KDC in the benchmark JVM with the service principal
 * {@code accumulo/localhost} and a client, and the server and client configurations for a mode.
 */
final class SaslKerberos implements AutoCloseable {
  static final String AUTH_CONF_GCM = "auth-conf-gcm";
  /** {@link #AUTH_CONF_GCM} with Conscrypt's (BoringSSL's) AES-GCM on both sides instead of the JDK's. */
  static final String AUTH_CONF_GCM_CONSCRYPT = "auth-conf-gcm-conscrypt";
  /** {@link #AUTH_CONF_GCM} with the Amazon Corretto Crypto Provider's (AWS-LC's) AES-GCM on both sides. */
  static final String AUTH_CONF_GCM_ACCP = "auth-conf-gcm-accp";
  /**
   * {@code auth-conf} through unmodified libthrift SASL transports on both ends with {@code SecureThriftSaslProvider}
   * installed ({@link LibthriftSaslFixture}): what unmodified Accumulo gets from the provider.
   */
  static final String AUTH_CONF_PROVIDER = "auth-conf-provider";
  /**
   * {@code auth-conf} through the same libthrift transports with standard Kerberos wrap tokens: the JDK mechanism's
   * GSS-API calls and bytes, what unmodified Accumulo gets today.
   */
  static final String AUTH_CONF_LIBTHRIFT = "auth-conf-libthrift";
  /**
   * The same libthrift transports at {@code auth}: SASL frames with nothing wrapped, the most any mechanism could give
   * a connection through them, against which {@link #AUTH_CONF_PROVIDER}'s cipher cost is read.
   */
  static final String AUTH_LIBTHRIFT = "auth-libthrift";
  private final EmbeddedKdc kdc = EmbeddedKdc.builder().start();
  private final KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
  private final KerberosIdentity client = kdc.principal("bench");

  /**
   * {@code none} is the plain framed baseline; anything else is a GSSAPI QOP token, {@link #AUTH_CONF_GCM},
   * {@link #AUTH_CONF_GCM_CONSCRYPT} or {@link #AUTH_CONF_GCM_ACCP}.
   */
  SecurityConfig server(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(service.principal(), service.keytab()).build();
  }

  SecurityConfig client(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(client.principal(), client.keytab()).build();
  }

  /** Whether {@code mode} runs on libthrift's own transports ({@link LibthriftSaslFixture}). */
  static boolean onLibthrift(String mode) {
    return mode.equals(AUTH_CONF_PROVIDER) || mode.equals(AUTH_CONF_LIBTHRIFT) || mode.equals(AUTH_LIBTHRIFT);
  }

  /** A libthrift mode's set-up: libthrift's transports, this KDC's service and client. */
  LibthriftSaslFixture libthrift(String mode) throws Exception {
    return LibthriftSaslFixture.start(service, client,
        mode.equals(AUTH_LIBTHRIFT) ? QualityOfProtection.AUTH : QualityOfProtection.AUTH_CONF,
        mode.equals(AUTH_CONF_PROVIDER) ? SaslPrivacy.AES_GCM_PREFERRED : SaslPrivacy.GSS);
  }

  private static SecurityConfig plain() {
    return SecurityConfig.builder().maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60)).build();
  }

  /**
   * A GSSAPI QOP token, or {@code auth-conf-gcm}: auth-conf with {@code securethrift.sasl.privacy=aes-gcm}, its cipher
   * from the JVM's provider list (the JDK's) or, with {@code -conscrypt} or {@code -accp}, from that provider.
   */
  private static SecurityConfig.Builder sasl(String mode) {
    Provider provider = mode.equals(AUTH_CONF_GCM_CONSCRYPT) ? conscrypt()
        : mode.equals(AUTH_CONF_GCM_ACCP) ? accp() : null;
    boolean gcm = provider != null || mode.equals(AUTH_CONF_GCM);
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(gcm ? QualityOfProtection.AUTH_CONF : QualityOfProtection.parse("qop", mode))
        .saslPrivacy(gcm ? SaslPrivacy.AES_GCM : SaslPrivacy.GSS)
        .saslPrivacyProvider(provider)
        .maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60));
  }

  /** Conscrypt's provider, one for the whole process. */
  static Provider conscrypt() {
    return ConscryptProvider.INSTANCE;
  }

  /** The Amazon Corretto Crypto Provider, or a message saying why its native library did not load here. */
  static Provider accp() {
    Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
    if (error != null) {
      throw new IllegalStateException("the Amazon Corretto Crypto Provider (mode " + AUTH_CONF_GCM_ACCP + ") does"
          + " not load on this machine: its native library ships for Linux on x86-64 and aarch64 only: " + error,
          error);
    }
    return AmazonCorrettoCryptoProvider.INSTANCE;
  }

  /** One Conscrypt provider for every configuration, created only by the mode that uses it. */
  private static final class ConscryptProvider {
    static final Provider INSTANCE = Conscrypt.newProvider();
  }

  @Override
  public void close() {
    kdc.close();
  }
}
