package io.securethrift.bench.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
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
  private final EmbeddedKdc kdc = EmbeddedKdc.builder().start();
  private final KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
  private final KerberosIdentity client = kdc.principal("bench");

  /** {@code none} is the plain framed baseline; anything else is a GSSAPI QOP token. */
  SecurityConfig server(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(service.principal(), service.keytab()).build();
  }

  SecurityConfig client(String mode) {
    return mode.equals("none") ? plain() : sasl(mode).kerberosLogin(client.principal(), client.keytab()).build();
  }

  private static SecurityConfig plain() {
    return SecurityConfig.builder().maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60)).build();
  }

  private static SecurityConfig.Builder sasl(String qop) {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(QualityOfProtection.parse("qop", qop)).maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(60));
  }

  @Override
  public void close() {
    kdc.close();
  }
}
