package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a SASL client or server factory logs about protection its configuration cannot give, each once per
 * factory: they describe the configuration, not a connection, and repeating them per connection would bury every
 * other log line.
 */
final class ProtectionWarnings {
  private static final Logger LOG = LoggerFactory.getLogger(ProtectionWarnings.class);

  private final String side;
  private final boolean overTls;
  private final AtomicBoolean unprotectedReported = new AtomicBoolean();

  /**
   * @param side {@code client} or {@code server}, for the messages
   * @param offerInClear whether this side's mechanism sends its level offer outside its own protection (DIGEST-MD5),
   *     where a man in the middle can rewrite it
   */
  ProtectionWarnings(String side, SecurityConfig config, boolean offerInClear) {
    this.side = side;
    this.overTls = config.mode().usesTls();
    List<QualityOfProtection> levels = config.sasl().qop();
    if (offerInClear && levels.size() > 1 && !overTls) {
      // The server's levels travel in its first challenge, outside the digest: all but the weakest can be struck.
      QualityOfProtection weakest = levels.stream().min(Enum::compareTo).orElseThrow();
      LOG.warn("DIGEST-MD5 {} accepts several protection levels {} ({}) without TLS underneath: the server's offer"
          + " travels outside the digest, so a man in the middle can make connections use the weakest listed level,"
          + " {}; list only auth-conf, or use {}={}", side, levels, ConfigProperty.SASL_QOP.key(), weakest,
          ConfigProperty.MODE.key(), SecurityMode.SASL_OVER_TLS);
    }
  }

  /** Warns about the first connection of this factory that runs at {@code auth} with no TLS to protect its RPCs. */
  void negotiated(QualityOfProtection qop, String peer) {
    if (qop == QualityOfProtection.AUTH && !overTls && unprotectedReported.compareAndSet(false, true)) {
      LOG.warn("SASL {} connection with {} runs at auth without TLS underneath: its RPCs are authenticated but neither"
          + " integrity- nor confidentiality-protected; list auth-conf in {}, or use {}={} (logged once per"
          + " factory)", side, peer, ConfigProperty.SASL_QOP.key(), ConfigProperty.MODE.key(),
          SecurityMode.SASL_OVER_TLS);
    }
  }
}
