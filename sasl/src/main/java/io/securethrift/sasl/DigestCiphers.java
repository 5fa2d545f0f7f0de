package io.securethrift.sasl;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.identity.PeerText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ciphers of DIGEST-MD5 {@code auth-conf} and the minimum strength either side accepts. Neither the server's
 * cipher list (in its first challenge) nor the client's choice (in its response) is covered by the digest, so a man
 * in the middle can strike the strong ciphers from the list and leave a weak one; the JDK's server then accepts
 * whatever cipher of its own the client picks. Each side therefore checks the cipher itself: the client before it
 * answers a challenge, both sides once the mechanism completes; and a server offers only the ciphers it accepts, so
 * that stock clients, which prefer RC4 when it is offered, choose 3DES.
 *
 * <p>securethrift rates the ciphers by its own table, not the JDK's: RC4 is broken at every key length (RFC 7465
 * forbids it in TLS), so 128-bit {@code rc4}, {@code high} to the JDK, is {@code medium} here, and the default
 * minimum, {@code high}, leaves 3DES alone.
 */
final class DigestCiphers {
  /** RFC 2831's ciphers and the strength securethrift gives each. */
  private static final Map<String, CipherStrength> STRENGTHS = Map.of("3des", CipherStrength.HIGH,
      "rc4", CipherStrength.MEDIUM, "des", CipherStrength.MEDIUM, "rc4-56", CipherStrength.MEDIUM,
      "rc4-40", CipherStrength.LOW);
  /** The JDK client's setting for the one cipher it should choose, when offered; it fails if it is not. */
  private static final String JDK_CLIENT_CIPHER = "com.sun.security.sasl.digest.cipher";
  private static final Pattern CIPHER_DIRECTIVE = Pattern.compile("(^|,)(\\s*cipher\\s*=\\s*)\"([^\"]*)\"",
      Pattern.CASE_INSENSITIVE);

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
   * The mechanism properties for a minimum beyond {@code javax.security.sasl.strength}: at {@code high}, the JDK's
   * client is told to choose 3DES, since by strength alone it prefers RC4 when a stock server offers both.
   */
  static Map<String, String> clientCipherProperty(CipherStrength minimum) {
    return minimum == CipherStrength.HIGH ? Map.of(JDK_CLIENT_CIPHER, "3des") : Map.of();
  }

  /**
   * A server's first challenge with its cipher list cut to the ciphers at least {@code minimum}: the JDK's server
   * offers every cipher the platform has whatever it is told. The cipher list is outside the digest, so the server may
   * change its own; a challenge without one is returned as it is.
   */
  static byte[] restrictOffer(byte[] challenge, CipherStrength minimum) {
    String text = new String(challenge, StandardCharsets.UTF_8);
    Matcher directive = CIPHER_DIRECTIVE.matcher(text);
    if (!directive.find()) {
      return challenge;
    }
    List<String> kept = new ArrayList<>();
    for (String token : directive.group(3).split(",")) {
      CipherStrength s = STRENGTHS.get(token.trim());
      if (s != null && s.atLeast(minimum)) {
        kept.add(token.trim());
      }
    }
    return (text.substring(0, directive.start(3)) + String.join(",", kept) + text.substring(directive.end(3)))
        .getBytes(StandardCharsets.UTF_8);
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
   * What a completed {@code auth-conf} DIGEST-MD5 mechanism encrypts with: the cipher named in the client's response,
   * which is plain text on both sides, and its strength by securethrift's table (null for a name not in it).
   */
  static DigestCiphers negotiated(byte[] clientResponse) {
    Optional<String> named = DigestDirectives.value(clientResponse, "cipher");
    CipherStrength strength = named.map(STRENGTHS::get).orElse(null);
    return new DigestCiphers(named.orElse("(unnamed)"), strength);
  }

  /** The refusal when this cipher is weaker than {@code minimum} (or of no reported strength), else empty. */
  Optional<String> refusal(CipherStrength minimum, String chooser) {
    if (strength != null && strength.atLeast(minimum)) {
      return Optional.empty();
    }
    return Optional.of(chooser + " chose cipher " + PeerText.sanitize(cipher) + " (strength "
        + (strength == null ? "unreported" : strength.token()) + ")" + belowMinimum(minimum));
  }

  private static String belowMinimum(CipherStrength minimum) {
    return ", below the minimum " + minimum + " (" + ConfigProperty.SASL_DIGEST_MIN_STRENGTH.key() + "); a man in"
        + " the middle may have rewritten the server's cipher list: run DIGEST-MD5 over sasl-over-tls, and lower the"
        + " setting only for a peer that truly has no stronger cipher";
  }
}
