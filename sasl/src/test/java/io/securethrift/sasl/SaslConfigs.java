package io.securethrift.sasl;

import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Configurations the SASL tests share: the service principal accumulo/localhost, a client, a delegation token. */
final class SaslConfigs {
  static final String HOST = "localhost";
  static final DelegationToken TOKEN = new DelegationToken("token-id-of-alice".getBytes(StandardCharsets.UTF_8),
      "s3cret-password".getBytes(StandardCharsets.UTF_8));
  static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();

  private SaslConfigs() {}

  static KerberosIdentity service(EmbeddedKdc kdc) {
    return kdc.servicePrincipal("accumulo", HOST);
  }

  static KerberosIdentity client(EmbeddedKdc kdc) {
    return kdc.principal("client");
  }

  /** The library's default QOP unless the caller sets one. */
  static SecurityConfig.Builder base(SaslMechanism mechanism) {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(mechanism)
        .maxFrameSize(4L << 20).handshakeTimeout(Duration.ofSeconds(10)).readTimeout(Duration.ofSeconds(30));
  }

  static SecurityConfig.Builder base(SaslMechanism mechanism, List<QualityOfProtection> qop) {
    return base(mechanism).qop(qop);
  }

  /** A DIGEST-MD5 server that knows {@link #TOKEN}; no keytab, since delegation tokens need no KDC. */
  static SecurityConfig.Builder digestServer() {
    return base(SaslMechanism.DIGEST_MD5).delegationTokenSecrets(SECRETS);
  }

  /** A DIGEST-MD5 client presenting {@link #TOKEN}. */
  static SecurityConfig.Builder digestClient() {
    return base(SaslMechanism.DIGEST_MD5).delegationToken(TOKEN);
  }

  /**
   * A GSSAPI server logs in from the service keytab and also knows {@link #TOKEN}, as Accumulo servers do; a
   * DIGEST-MD5 server has no keytab, so it accepts DIGEST-MD5 alone.
   */
  static SecurityConfig server(EmbeddedKdc kdc, SaslMechanism mechanism, QualityOfProtection... qop) {
    if (mechanism == SaslMechanism.DIGEST_MD5) {
      return digestServer().qop(qop).build();
    }
    KerberosIdentity service = service(kdc);
    return base(mechanism, List.of(qop)).kerberosLogin(service.principal(), service.keytab())
        .delegationTokenSecrets(SECRETS).build();
  }

  static SecurityConfig client(EmbeddedKdc kdc, SaslMechanism mechanism, QualityOfProtection... qop) {
    SecurityConfig.Builder b = base(mechanism, List.of(qop));
    if (mechanism == SaslMechanism.GSSAPI) {
      KerberosIdentity client = client(kdc);
      b.kerberosLogin(client.principal(), client.keytab());
    } else {
      b.delegationToken(TOKEN);
    }
    return b.build();
  }
}
