package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a SASL factory logs about protection its configuration cannot give, each once per factory: they
 * describe the configuration, not a connection, and repeating them per connection would bury every other log line.
 */
final class ProtectionWarnings {
  private static final Logger LOG = LoggerFactory.getLogger(ProtectionWarnings.class);

  private ProtectionWarnings() {}

  /**
   * A DIGEST-MD5 server's levels travel in its first challenge, outside the digest, so when a side lists several a man
   * in the middle can strike all but the weakest. TLS underneath (sasl-over-tls) keeps him out.
   *
   * @param side {@code client} or {@code server}, for the message
   */
  static void digestLevels(String side, SecurityConfig config) {
    List<QualityOfProtection> levels = config.sasl().qop();
    if (levels.size() > 1 && !config.mode().usesTls()) {
      QualityOfProtection weakest = levels.stream().min(Enum::compareTo).orElseThrow();
      LOG.warn("DIGEST-MD5 {} accepts several protection levels {} ({}) without TLS underneath: the server's offer"
          + " travels outside the digest, so a man in the middle can make connections use the weakest listed level,"
          + " {}; list only auth-conf, or use {}={}", side, levels, ConfigProperty.SASL_QOP.key(), weakest,
          ConfigProperty.MODE.key(), SecurityMode.SASL_OVER_TLS);
    }
  }
}
