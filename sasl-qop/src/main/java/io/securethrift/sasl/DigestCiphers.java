package io.securethrift.sasl;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.PeerText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.sasl.Sasl;

/**
 * The ciphers of DIGEST-MD5 {@code auth-conf} and the minimum strength either side accepts. Neither the server's
 * cipher list (in its first challenge) nor the client's choice (in its response) is covered by the digest, so a man
 * in the middle can strike the strong ciphers from the list and leave a 40-bit one; the JDK's server then accepts
 * whatever offered cipher the client picks. Each side therefore checks the cipher itself: the client before it
 * answers a challenge, both sides once the mechanism completes.
 */
final class DigestCiphers {
  /** RFC 2831's ciphers and the strength the JDK gives each. */
  private static final Map<String, CipherStrength> STRENGTHS = Map.of("3des", CipherStrength.HIGH,
      "rc4", CipherStrength.HIGH, "des", CipherStrength.MEDIUM, "rc4-56", CipherStrength.MEDIUM,
      "rc4-40", CipherStrength.LOW);

  private final String cipher;
  private final CipherStrength strength;

  private DigestCiphers(String cipher, CipherStrength strength) {
    this.cipher = cipher;
    this.strength = strength;
  }

  String cipher() {
    return cipher;
  }

  CipherStrength strength() {
    return strength;
  }

  /**
   * The value of {@code javax.security.sasl.strength} for a minimum: the acceptable strengths, strongest first. The
   * JDK's client chooses its cipher by it; the JDK's server ignores it and offers every cipher the platform has,
   * which is why both sides check the {@link #negotiated} cipher.
   */
  static String strengthProperty(CipherStrength minimum) {
    List<String> acceptable = new ArrayList<>();
    for (CipherStrength s : CipherStrength.values()) {
      if (s.atLeast(minimum)) {
        acceptable.add(0, s.token());
      }
    }
    return String.join(",", acceptable);
  }

  /**
   * Checks a server's first challenge before the client answers it, when the client would choose {@code auth-conf}:
   * at least one offered cipher must be as strong as the minimum. The JDK's client would refuse too, but without
   * naming the setting.
   *
   * @return the refusal, or empty when the offer is acceptable or carries no cipher list
   */
  static Optional<String> checkOffer(byte[] challenge, CipherStrength minimum) {
    Optional<String> offered = DigestDirectives.value(challenge, "cipher");
    if (offered.isEmpty()) {
      return Optional.empty();
    }
    List<String> ciphers = new ArrayList<>();
    CipherStrength strongest = null;
    for (String token : offered.get().split(",")) {
      String name = token.trim();
      CipherStrength s = STRENGTHS.get(name);
      if (s != null) {
        ciphers.add(name);
        strongest = strongest == null || s.atLeast(strongest) ? s : strongest;
      }
    }
    if (strongest != null && strongest.atLeast(minimum)) {
      return Optional.empty();
    }
    return Optional.of("server offers auth-conf only with ciphers " + ciphers
        + (strongest == null ? "" : " (strength " + strongest + ")") + belowMinimum(minimum));
  }

  /**
   * What a completed {@code auth-conf} DIGEST-MD5 mechanism encrypts with: the strength the mechanism reports (null if
   * it reports none), and the cipher named in the client's response, which is plain text on both sides.
   */
  static DigestCiphers negotiated(SaslEndpoint sasl, byte[] clientResponse) {
    Object reported = sasl.negotiatedProperty(Sasl.STRENGTH);
    CipherStrength strength = null;
    for (CipherStrength s : CipherStrength.values()) {
      if (s.token().equals(reported)) {
        strength = s;
      }
    }
    String cipher = DigestDirectives.value(clientResponse, "cipher").orElse("(unnamed)");
    return new DigestCiphers(cipher, strength);
  }

  /** The refusal when this cipher is weaker than {@code minimum} (or of no reported strength), else empty. */
  Optional<String> refusal(CipherStrength minimum, String chooser) {
    if (strength != null && strength.atLeast(minimum)) {
      return Optional.empty();
    }
    return Optional.of(chooser + " chose cipher " + PeerText.sanitize(cipher) + " (strength " + (strength == null ? "unreported"
        : strength.token()) + ")" + belowMinimum(minimum));
  }

  private static String belowMinimum(CipherStrength minimum) {
    return ", below the minimum " + minimum + " (" + ConfigProperty.SASL_DIGEST_MIN_STRENGTH.key() + "); a man in"
        + " the middle may have rewritten the server's cipher list: run DIGEST-MD5 over sasl-over-tls, and lower the"
        + " setting only for a peer that truly has no stronger cipher";
  }
}
