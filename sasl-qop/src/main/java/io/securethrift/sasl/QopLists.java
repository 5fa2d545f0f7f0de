package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.security.sasl.Sasl;

/**
 * QOP preference lists and the checks that keep negotiation inside them. The JDK mechanisms pick a level on their
 * own; these checks make sure neither side ends up with a level it did not list, and that a failure names both lists
 * so an operator sees at once which side to change.
 */
final class QopLists {
  private static final List<QualityOfProtection> STRONGEST_FIRST =
      List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT, QualityOfProtection.AUTH);

  private QopLists() {}

  static String describe(List<QualityOfProtection> list) {
    return list.toString();
  }

  /**
   * What a GSSAPI client asks its mechanism for: its own levels first, then the others strongest first. The server's
   * offer is encrypted inside the mechanism, so this is how the client learns a level the server does offer when
   * none of its own is; {@link #negotiated} then refuses it before the final response is sent.
   */
  static List<QualityOfProtection> widened(List<QualityOfProtection> own) {
    List<QualityOfProtection> all = new ArrayList<>(own);
    STRONGEST_FIRST.stream().filter(q -> !own.contains(q)).forEach(all::add);
    return all;
  }

  /** The levels a DIGEST-MD5 server offers in its first challenge (plain text), if it names any. */
  static Optional<List<QualityOfProtection>> digestOffer(byte[] challenge) {
    Optional<String> levels = DigestDirectives.value(challenge, "qop");
    if (levels.isEmpty()) {
      return Optional.empty();
    }
    List<QualityOfProtection> offer = new ArrayList<>();
    for (String token : levels.get().split(",")) {
      for (QualityOfProtection q : QualityOfProtection.values()) {
        if (q.token().equals(token.trim())) {
          offer.add(q);
        }
      }
    }
    return Optional.of(offer);
  }

  /** The level a complete mechanism negotiated; RFC 4422 says absence means {@code auth}. */
  static QualityOfProtection negotiated(SaslEndpoint sasl) {
    Object value = sasl.negotiatedProperty(Sasl.QOP);
    if (value == null) {
      return QualityOfProtection.AUTH;
    }
    for (QualityOfProtection q : QualityOfProtection.values()) {
      if (q.token().equals(value)) {
        return q;
      }
    }
    throw new IllegalStateException("SASL mechanism negotiated an unknown QOP '" + value + "'");
  }

  static String noCommonLevel(List<QualityOfProtection> client, String server) {
    return "no SASL quality of protection acceptable to both sides: client accepts " + describe(client)
        + ", server offers " + server;
  }
}
