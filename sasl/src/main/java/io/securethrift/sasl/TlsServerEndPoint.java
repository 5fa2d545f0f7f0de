package io.securethrift.sasl;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Locale;

/**
 * The {@code tls-server-end-point} channel binding of RFC 5929 section 4: a hash of the TLS server's certificate,
 * which a client computes from the certificate it was shown and a server from its own. A man in the middle who
 * terminates the client's TLS shows a certificate of its own, so the client's binding differs from the real server's.
 * Unlike {@code tls-exporter} (RFC 9266) it exists on every TLS version and engine securethrift runs (the JDK exports
 * keying material only from Java 25), so two peers always compute the same type and nothing is negotiated.
 */
final class TlsServerEndPoint {
  private TlsServerEndPoint() {}

  /**
   * The binding of {@code certificate}: its DER encoding hashed with its signature's hash, SHA-256 where that is MD5
   * or SHA-1 or names no hash (RFC 5929 section 4.1).
   */
  static byte[] of(X509Certificate certificate) {
    try {
      return MessageDigest.getInstance(hash(certificate.getSigAlgName())).digest(certificate.getEncoded());
    } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
      throw new IllegalStateException("cannot hash the TLS server's certificate for channel binding", e);
    }
  }

  private static String hash(String signatureAlgorithm) {
    String name = signatureAlgorithm.toUpperCase(Locale.ROOT);
    return name.startsWith("SHA384") ? "SHA-384" : name.startsWith("SHA512") ? "SHA-512" : "SHA-256";
  }
}
