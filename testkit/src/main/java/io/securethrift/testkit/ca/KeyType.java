package io.securethrift.testkit.ca;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Key algorithms for test certificates: the two that TLS deployments actually use, and a weak RSA key for tests of
 * refusals.
 */
public enum KeyType {
  /** RSA with a 2048-bit modulus, signing with SHA256withRSA. */
  RSA,
  /** ECDSA on NIST P-256 (secp256r1), signing with SHA256withECDSA. */
  EC,
  /**
   * RSA with a 1024-bit modulus, signing with SHA256withRSA: too weak for FIPS 140-3 and current guidance, though the
   * JDK's default limits still accept it; for tests that check it is refused.
   */
  RSA_1024;

  /** The name a command line gives this type: {@code rsa}, {@code ec}, {@code rsa_1024}. */
  public String token() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type {@link #token()} names, ignoring case, if one does. */
  public static Optional<KeyType> byToken(String token) {
    return Arrays.stream(values()).filter(t -> t.token().equalsIgnoreCase(token)).findFirst();
  }

  KeyPair generate() {
    try {
      if (this != EC) {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(this == RSA ? 2048 : 1024);
        return generator.generateKeyPair();
      }
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate a " + this + " key pair", e);
    }
  }

  /** Returns the signature algorithm an issuer holding {@code key} signs with. */
  static String signatureAlgorithm(PrivateKey key) {
    return "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
  }
}
