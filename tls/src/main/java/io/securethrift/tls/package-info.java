/**
 * TLS for securethrift's {@code tls} and {@code sasl-over-tls} modes on JSSE or Conscrypt, plugged into {@code core}
 * as a layer provider: key and trust stores (PKCS12, JKS, PEM), hostname verification, reloading on rotation and
 * handshake errors that say what to change. Users configure it through {@code SecurityConfig}; the classes here are
 * its parts.
 */
package io.securethrift.tls;
