package io.securethrift.bench.peer;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.TlsEngine;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The security modes peer-bench compares, each as Accumulo would configure it. */
enum PeerMode {
  PLAIN("plain", null, null),
  TLS_JSSE("tls-jsse", TlsEngine.JSSE, null),
  TLS_CONSCRYPT("tls-conscrypt", TlsEngine.CONSCRYPT, null),
  AUTH("auth", null, QualityOfProtection.AUTH),
  AUTH_INT("auth-int", null, QualityOfProtection.AUTH_INT),
  AUTH_CONF("auth-conf", null, QualityOfProtection.AUTH_CONF);

  private final String label;
  private final TlsEngine engine;
  private final QualityOfProtection qop;

  PeerMode(String label, TlsEngine engine, QualityOfProtection qop) {
    this.label = label;
    this.engine = engine;
    this.qop = qop;
  }

  String label() {
    return label;
  }

  boolean tls() {
    return engine != null;
  }

  boolean sasl() {
    return qop != null;
  }

  /** The TLS engine of a TLS mode. */
  TlsEngine engine() {
    return engine;
  }

  /**
   * The one TLS version clients ask for: libthrift's default ({@code TLS}, the newest) except with Conscrypt, where
   * it is TLS 1.2 as Accumulo's clients ask for it: Conscrypt's TLS 1.3 client reports the key exchange as
   * {@code GENERIC}, which the JDK trust managers {@code TSSLTransportFactory} builds reject. Both libraries' clients
   * get the same version, so a handshake is compared with a handshake of the same protocol.
   */
  String clientProtocol() {
    return this == TLS_CONSCRYPT ? "TLSv1.2" : "TLS";
  }

  /** The GSSAPI quality of protection of a SASL mode. */
  QualityOfProtection qop() {
    return qop;
  }

  static PeerMode of(String label) {
    return Arrays.stream(values()).filter(m -> m.label.equals(label)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("'" + label + "' is not a mode; accepted: "
            + Arrays.stream(values()).map(PeerMode::label).collect(Collectors.joining(", "))));
  }
}
