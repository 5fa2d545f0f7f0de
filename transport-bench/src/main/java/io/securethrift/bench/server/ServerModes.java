package io.securethrift.bench.server;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.ModeSet;

/**
 * The modes server-bench compares the two server models in. TLS runs on the engine of {@code --engine}, so the mode
 * is {@code tls} without one; SASL is DIGEST-MD5, so no KDC is measured.
 */
final class ServerModes {
  static final ModeSet MODES = ModeSet.of("server-bench", null, "none", "tls", "sasl-auth", "sasl-auth-conf");
  static final BenchMode TLS = MODES.parse("mode", "tls");

  private ServerModes() {}

  /** Whether a connection has a handshake before it is served (every mode but {@code none}). */
  static boolean handshakes(BenchMode mode) {
    return mode.tls() || mode.sasl();
  }
}
