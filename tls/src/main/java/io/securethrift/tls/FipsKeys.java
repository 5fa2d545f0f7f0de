package io.securethrift.tls;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.identity.PeerText;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The FIPS profile's rule for the keys of certificates ({@code securethrift.fips}): RSA of 2048 bits or more, and
 * ECDSA on P-256, P-384 or P-521 (FIPS 186-5 and SP 800-131A rev. 2 approve nothing smaller, SP 800-186 these
 * curves for ECDSA in TLS); every other key type is refused too. Applied to this side's key store and trust store when
 * they load, and to the chain a peer presents, after the JDK's own checks passed.
 */
final class FipsKeys {
  static final String RULE = "RSA keys of 2048 bits or more and EC keys on P-256, P-384 or P-521";
  private static final int MIN_RSA_BITS = 2048;
  /** The approved curves by their NIST name; empty on a runtime without EC, which cannot load EC keys anyway. */
  private static final Map<String, ECParameterSpec> CURVES = curves();

  private FipsKeys() {}

  /** Fails naming {@code file}, the certificate and the rule when a certificate of a store holds a refused key. */
  static void checkStore(Path file, List<X509Certificate> certificates) throws GeneralSecurityException {
    for (X509Certificate certificate : certificates) {
      Optional<String> refusal = refusal(certificate.getPublicKey());
      if (refusal.isPresent()) {
        throw new GeneralSecurityException(file + ": " + whose(certificate) + " holds " + refusal.get() + ", which "
            + ConfigProperty.FIPS.key() + "=true refuses (it admits " + RULE + "); replace it with a certificate of"
            + " an approved key, or set " + ConfigProperty.FIPS.key() + "=false");
      }
    }
  }

  /** Fails naming the peer's certificate and the rule when the chain a peer presented holds a refused key. */
  static void checkPeer(X509Certificate[] chain) throws CertificateException {
    for (X509Certificate certificate : chain) {
      Optional<String> refusal = refusal(certificate.getPublicKey());
      if (refusal.isPresent()) {
        throw new CertificateException("the peer's certificate chain holds " + refusal.get() + " (" + whose(certificate)
            + "), which " + ConfigProperty.FIPS.key() + "=true refuses; it admits " + RULE);
      }
    }
  }

  /** Empty when {@code key} is approved, else what it is, in words. */
  static Optional<String> refusal(PublicKey key) {
    if (key instanceof RSAPublicKey) {
      int bits = ((RSAPublicKey) key).getModulus().bitLength();
      return bits >= MIN_RSA_BITS ? Optional.empty() : Optional.of("a " + bits + "-bit RSA key");
    }
    if (key instanceof ECPublicKey) {
      ECParameterSpec params = ((ECPublicKey) key).getParams();
      boolean approved = CURVES.values().stream().anyMatch(curve -> sameCurve(curve, params));
      return approved ? Optional.empty() : Optional.of("an EC key on a curve other than P-256, P-384 and P-521 ("
          + params.getCurve().getField().getFieldSize() + "-bit field)");
    }
    return Optional.of("a " + key.getAlgorithm() + " key");
  }

  private static String whose(X509Certificate certificate) {
    return "the certificate " + PeerText.sanitize(certificate.getSubjectX500Principal().getName());
  }

  private static boolean sameCurve(ECParameterSpec a, ECParameterSpec b) {
    return a.getCurve().equals(b.getCurve()) && a.getGenerator().equals(b.getGenerator())
        && a.getOrder().equals(b.getOrder()) && a.getCofactor() == b.getCofactor();
  }

  private static Map<String, ECParameterSpec> curves() {
    Map<String, ECParameterSpec> curves = new LinkedHashMap<>();
    for (String[] curve : new String[][] {{"P-256", "secp256r1"}, {"P-384", "secp384r1"}, {"P-521", "secp521r1"}}) {
      try {
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec(curve[1]));
        curves.put(curve[0], parameters.getParameterSpec(ECParameterSpec.class));
      } catch (GeneralSecurityException e) {
        // No EC provider (a jlink'd runtime without jdk.crypto.ec): StoreLoader refuses EC keys there already.
      }
    }
    return Map.copyOf(curves);
  }
}
