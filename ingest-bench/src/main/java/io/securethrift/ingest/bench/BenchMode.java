package io.securethrift.ingest.bench;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import java.util.Arrays;

/**
 * The security levels the embedded backend compares, in the order of Accumulo's published table. Every level runs
 * the same server model; only the security layer differs.
 */
enum BenchMode {
  NONE("none"),
  TLS_JSSE("tls-jsse"),
  TLS_CONSCRYPT("tls-conscrypt"),
  SASL_AUTH("sasl-auth"),
  SASL_AUTH_INT("sasl-auth-int"),
  SASL_AUTH_CONF("sasl-auth-conf"),
  /** auth-conf with securethrift.sasl.privacy=aes-gcm: AES-GCM records keyed through the Kerberos layer. */
  SASL_AUTH_CONF_GCM("sasl-auth-conf-gcm"),
  /**
   * auth-conf through libthrift's own {@code TSaslClientTransport} and {@code TSaslServerTransport}, each worker JVM
   * started with {@code SecureThriftSaslProvider}'s security file and nothing else: what an unmodified Accumulo
   * cluster gets from the provider. The nonblocking server model has no libthrift form, so there only the client is
   * libthrift's.
   */
  SASL_AUTH_CONF_PROVIDER("sasl-auth-conf-provider"),
  /**
   * auth through the same libthrift transports and JVM options as {@link #SASL_AUTH_CONF_PROVIDER}: SASL frames with
   * nothing wrapped, so that what libthrift's transports cost can be told from what the provider's cipher costs.
   */
  SASL_AUTH_LIBTHRIFT("sasl-auth-libthrift"),
  SASL_OVER_TLS("sasl-over-tls");

  private final String token;

  BenchMode(String token) {
    this.token = token;
  }

  String token() {
    return token;
  }

  /** The level with this token; the harness has already checked it is one. */
  static BenchMode parse(String text) {
    return Arrays.stream(values()).filter(m -> m.token.equals(text)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not an embedded mode: " + text));
  }

  /** This level's configuration for the server or the client side. */
  SecurityConfig config(BenchSecurity fixtures, boolean server) {
    SecurityConfig.Builder b = switch (this) {
      case NONE -> BenchSecurity.base(SecurityMode.NONE);
      case TLS_JSSE -> fixtures.tls(BenchSecurity.base(SecurityMode.TLS).tlsEngine(TlsEngine.JSSE), server, true);
      case TLS_CONSCRYPT ->
          fixtures.tls(BenchSecurity.base(SecurityMode.TLS).tlsEngine(TlsEngine.CONSCRYPT), server, true);
      case SASL_AUTH, SASL_AUTH_LIBTHRIFT -> sasl(fixtures, server, QualityOfProtection.AUTH);
      case SASL_AUTH_INT -> sasl(fixtures, server, QualityOfProtection.AUTH_INT);
      case SASL_AUTH_CONF -> sasl(fixtures, server, QualityOfProtection.AUTH_CONF);
      // libthrift's transports read only the login and the QOP from it; securethrift's nonblocking server reads the
      // privacy an operator would set there to meet the provider's clients.
      case SASL_AUTH_CONF_PROVIDER ->
          sasl(fixtures, server, QualityOfProtection.AUTH_CONF).saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED);
      case SASL_AUTH_CONF_GCM ->
          sasl(fixtures, server, QualityOfProtection.AUTH_CONF).saslPrivacy(SaslPrivacy.AES_GCM);
      case SASL_OVER_TLS -> fixtures.tls(fixtures.kerberos(BenchSecurity.base(SecurityMode.SASL_OVER_TLS), server)
          .qop(QualityOfProtection.AUTH).tlsEngine(TlsEngine.AUTO), server, false);
    };
    return b.build();
  }

  /** Whether this level's connections must settle on AES-GCM privacy: the harness checks it did. */
  boolean aesGcm() {
    return this == SASL_AUTH_CONF_GCM || this == SASL_AUTH_CONF_PROVIDER;
  }

  /** Whether this level's workers run libthrift's SASL transports with the provider instead of securethrift's. */
  boolean onLibthrift() {
    return this == SASL_AUTH_CONF_PROVIDER || this == SASL_AUTH_LIBTHRIFT;
  }

  private static SecurityConfig.Builder sasl(BenchSecurity fixtures, boolean server, QualityOfProtection qop) {
    return fixtures.kerberos(BenchSecurity.base(SecurityMode.SASL), server).qop(qop);
  }

  @Override
  public String toString() {
    return token;
  }
}
