package io.securethrift.bench.peer;

import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.ModeSet;

/** The modes peer-bench compares, each as Accumulo would configure it. */
final class PeerModes {
  static final ModeSet MODES = ModeSet.of("peer-bench", null, "none", "tls-jsse", "tls-conscrypt",
      "tls-openssl", "sasl-auth", "sasl-auth-int", "sasl-auth-conf");

  private PeerModes() {}

  /**
   * The one TLS version clients ask for: libthrift's default ({@code TLS}, the newest) except with Conscrypt, where
   * it is TLS 1.2 as Accumulo's clients ask for it: Conscrypt's TLS 1.3 client reports the key exchange as
   * {@code GENERIC}, which the JDK trust managers {@code TSSLTransportFactory} builds reject. Both libraries' clients
   * get the same version, so a handshake is compared with a handshake of the same protocol.
   */
  static String clientProtocol(BenchMode mode) {
    return conscrypt(mode) ? "TLSv1.2" : "TLS";
  }

  /** Whether {@code mode} is TLS on Conscrypt. */
  static boolean conscrypt(BenchMode mode) {
    return mode.tls() && mode.engine().orElseThrow().equals(TlsEngine.CONSCRYPT);
  }
}
