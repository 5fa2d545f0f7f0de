package io.securethrift.netty;

import io.securethrift.core.PeerIdentity;
import io.securethrift.core.PeerText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where the server reports how each connection's authentication ended, so an audit log (issue #18)
 * connects here and nowhere else: {@link #authenticated} once per connection that completed its handshakes (with the
 * identity: principal, mechanism, QOP, TLS details), {@link #failed} once per connection refused before that (where,
 * and why).
 */
final class AuthOutcomes {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  /** Where a connection was refused. */
  enum Stage {
    /** The TLS handshake. */
    TLS,
    /** The SASL negotiation. */
    SASL,
    /** The handshake deadline passed first ({@code securethrift.timeout.handshake}). */
    DEADLINE,
    /** An admission limit was reached before authentication. */
    ADMISSION
  }

  private AuthOutcomes() {}

  static void authenticated(PeerIdentity identity) {
    LOG.debug("authenticated {}", identity);
  }

  /**
   * @param cause already free of peer-controlled text, or passed through {@link PeerText#sanitize} here
   */
  static void failed(String peer, Stage stage, String cause) {
    if (stage != Stage.ADMISSION) {
      // Admission refusals are logged, rate-limited, by the limit that refused them.
      LOG.warn("rejected connection from {}: {}", peer, PeerText.sanitize(cause));
    }
  }
}
