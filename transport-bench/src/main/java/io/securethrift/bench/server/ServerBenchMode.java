package io.securethrift.bench.server;

import io.securethrift.core.ConfigException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The security modes server-bench compares the two server models in. SASL is DIGEST-MD5, so no KDC is measured. */
enum ServerBenchMode {
  NONE("none"),
  TLS("tls"),
  SASL_AUTH("sasl-auth"),
  SASL_AUTH_CONF("sasl-auth-conf");

  private final String token;

  ServerBenchMode(String token) {
    this.token = token;
  }

  String token() {
    return token;
  }

  /** Whether a connection has a handshake before it is served (every mode but {@code none}). */
  boolean handshakes() {
    return this != NONE;
  }

  static ServerBenchMode parse(String option, String text) {
    return Arrays.stream(values()).filter(m -> m.token.equals(text)).findFirst().orElseThrow(() ->
        new ConfigException(option, "'" + text + "' is not a mode; one of " + Arrays.stream(values())
            .map(ServerBenchMode::token).collect(Collectors.joining(", "))));
  }

  @Override
  public String toString() {
    return token;
  }
}
