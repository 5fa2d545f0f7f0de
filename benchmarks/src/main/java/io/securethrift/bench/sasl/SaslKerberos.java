package io.securethrift.bench.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KerberosIdentity;
import java.time.Duration;

/**
 * The Kerberos side of a SASL benchmark: an embedded KDC in the benchmark JVM with the service principal
 * {@code accumulo/localhost} and a client, and the server and client configurations for a mode.
 */
final class SaslKerberos implements AutoCloseable {
  static final String AUTH_CONF_GCM = "auth-conf-gcm";
  private final EmbeddedKdc kdc = EmbeddedKdc.builder().start();
  private final KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
  private final KerberosIdentity client = kdc.principal("bench");

  /** {@code none} is the plain framed baseline; anything else is a GSSAPI QOP token or {@link #AUTH_CONF_GCM}. */
  SecurityConfig server(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(service.principal(), service.keytab()).build();
  }

  SecurityConfig client(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(client.principal(), client.keytab()).build();
  }

  private static SecurityConfig plain() {
    return SecurityConfig.builder().maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60)).build();
  }

  /** A GSSAPI QOP token, or {@code auth-conf-gcm}: auth-conf with {@code securethrift.sasl.privacy=aes-gcm}. */
  private static SecurityConfig.Builder sasl(String mode) {
    boolean gcm = mode.equals(AUTH_CONF_GCM);
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(gcm ? QualityOfProtection.AUTH_CONF : QualityOfProtection.parse("qop", mode))
        .saslPrivacy(gcm ? SaslPrivacy.AES_GCM : SaslPrivacy.GSS)
        .maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60));
  }

  @Override
  public void close() {
    kdc.close();
  }
}
