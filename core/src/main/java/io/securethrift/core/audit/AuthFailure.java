package io.securethrift.core.audit;

/**
 * Why a server refused a connection before it was secured: the {@code cause} field of an audit line and the key of
 * {@link AuthCounters#failures(AuthFailure)}. Each has a stable token, the text the logs carry.
 */
public enum AuthFailure {
  /**
   * The peer closed before it sent a whole first handshake message (TLS ClientHello, SASL START): port scanners, load
   * balancer and TCP health checks. Counted and audited, but logged only at DEBUG in the main log.
   */
  CLOSED_BEFORE_HANDSHAKE("closed-before-handshake"),
  /** The peer closed or reset the connection later in the handshake, without saying why. */
  CLOSED_DURING_HANDSHAKE("closed-during-handshake"),
  /** The handshake did not complete within {@code securethrift.timeout.handshake}. */
  TIMEOUT("timeout"),
  /** The TLS handshake failed: an alert either way (untrusted certificate, no common version or suite, not TLS). */
  TLS_ALERT("tls-alert"),
  /** The SASL negotiation failed: a BAD or ERROR either way (failed authentication, protocol violation). */
  SASL_BAD("sasl-bad"),
  /** The peer accepted none of the SASL protection levels the server offered. */
  QOP_REFUSED_BY_PEER("qop-refused-by-peer"),
  /** The peer chose a protection level (or DIGEST-MD5 cipher) the server does not accept. */
  QOP_REFUSED_BY_SERVER("qop-refused-by-server"),
  /** The peer presented a name the server does not know (an unknown or expired delegation token). */
  UNKNOWN_PRINCIPAL("unknown-principal"),
  /**
   * The peer's Kerberos authentication is bound to another TLS connection than the one it arrived on (a relay by a
   * man in the middle), or the peer did not bind where {@code securethrift.sasl.channel.binding=require}.
   */
  CHANNEL_BINDING("channel-binding"),
  /** A handshake message declared more bytes than {@code securethrift.limit.max.negotiation.message.size}. */
  OVER_LIMIT("over-limit"),
  /**
   * A plaintext connection on a unified port ({@code securethrift.server.port.unification}) switched to TLS only.
   * Plaintext connections it served are counted by {@link AuthCounters#plaintext()}, under the same token.
   */
  PLAINTEXT("plaintext");

  private final String token;

  AuthFailure(String token) {
    this.token = token;
  }

  /** The text audit lines and counters show, such as {@code qop-refused-by-peer}. */
  public String token() {
    return token;
  }

  @Override
  public String toString() {
    return token;
  }
}
