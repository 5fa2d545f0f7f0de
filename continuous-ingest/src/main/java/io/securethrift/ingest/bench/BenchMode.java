package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The security levels the ingest benchmark compares, in the order of Accumulo's published table. Every level runs
 * the same server model; only the security layer differs.
 */
enum BenchMode {
  NONE("none"),
  TLS_JSSE("tls-jsse"),
  TLS_CONSCRYPT("tls-conscrypt"),
  SASL_AUTH("sasl-auth"),
  SASL_AUTH_INT("sasl-auth-int"),
  SASL_AUTH_CONF("sasl-auth-conf"),
  SASL_OVER_TLS("sasl-over-tls");

  private final String token;

  BenchMode(String token) {
    this.token = token;
  }

  String token() {
    return token;
  }

  static BenchMode parse(String text) {
    for (BenchMode m : values()) {
      if (m.token.equals(text)) {
        return m;
      }
    }
    throw new ConfigException("--modes", "'" + text + "' is not a mode; accepted values: "
        + Arrays.stream(values()).map(BenchMode::token).collect(Collectors.joining(", ")));
  }

  /** This level's configuration for the server or the client side. */
  SecurityConfig config(SecurityFixtures fixtures, boolean server) {
    SecurityConfig.Builder b = switch (this) {
      case NONE -> SecurityFixtures.base(SecurityMode.NONE);
      case TLS_JSSE -> fixtures.tls(SecurityFixtures.base(SecurityMode.TLS).tlsEngine(TlsEngine.JSSE), server, true);
      case TLS_CONSCRYPT ->
          fixtures.tls(SecurityFixtures.base(SecurityMode.TLS).tlsEngine(TlsEngine.CONSCRYPT), server, true);
      case SASL_AUTH -> sasl(fixtures, server, QualityOfProtection.AUTH);
      case SASL_AUTH_INT -> sasl(fixtures, server, QualityOfProtection.AUTH_INT);
      case SASL_AUTH_CONF -> sasl(fixtures, server, QualityOfProtection.AUTH_CONF);
      case SASL_OVER_TLS -> fixtures.tls(fixtures.kerberos(SecurityFixtures.base(SecurityMode.SASL_OVER_TLS), server)
          .qop(QualityOfProtection.AUTH).tlsEngine(TlsEngine.AUTO), server, false);
    };
    return b.build();
  }

  private static SecurityConfig.Builder sasl(SecurityFixtures fixtures, boolean server, QualityOfProtection qop) {
    return fixtures.kerberos(SecurityFixtures.base(SecurityMode.SASL), server).qop(qop);
  }

  @Override
  public String toString() {
    return token;
  }
}
