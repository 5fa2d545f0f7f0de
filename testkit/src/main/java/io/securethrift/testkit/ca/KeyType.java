package io.securethrift.testkit.ca;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;

/** Key algorithms for test certificates: the two that TLS deployments actually use. */
public enum KeyType {
  /** RSA with a 2048-bit modulus, signing with SHA256withRSA. */
  RSA,
  /** ECDSA on NIST P-256 (secp256r1), signing with SHA256withECDSA. */
  EC;

  KeyPair generate() {
    try {
      if (this == RSA) {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
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
