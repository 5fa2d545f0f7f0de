package io.securethrift.tls;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.OcspMode;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedMessage;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.CertificateException;
import java.security.cert.CertificateRevokedException;
import java.security.cert.X509Certificate;
import java.time.format.DateTimeFormatter;

/**
 * {@link RevocationCheck}'s refusal: a certificate of the peer's chain is revoked, or its status could not be
 * determined under hard failure. {@link #reason()} is the sentence {@link HandshakeErrors} puts after "the client's"
 * or "the server's"; it names the certificate by serial number (upper-case hex, as OpenSSL prints it), the number
 * CRLs, OCSP responders and CA indexes know it by. The JDK's exception stays the cause.
 */
final class RevokedCertificateException extends CertificateException implements EscapedMessage {
  private static final long serialVersionUID = 1L;

  private final String reason;

  private RevokedCertificateException(String reason, CertPathValidatorException cause) {
    super(reason, cause);
    this.reason = reason;
  }

  /** The refusal for a failed validation of {@code leaf}'s path; the certificate at fault is the one it names. */
  static RevokedCertificateException of(CertPathValidatorException e, X509Certificate leaf, OcspMode ocsp) {
    X509Certificate certificate = at(e, leaf);
    String which = (certificate == leaf ? "certificate" : "certificate chain: its CA certificate") + " serial "
        + RevocationCheck.serial(certificate) + " (" + PrincipalMapper.describe(certificate) + ")";
    CertificateRevokedException revoked = find(e);
    if (e.getReason() == BasicReason.REVOKED && revoked != null) {
      return new RevokedCertificateException(which + " is revoked: reason " + revoked.getRevocationReason()
          + ", since " + DateTimeFormatter.ISO_INSTANT.format(revoked.getRevocationDate().toInstant()), e);
    }
    if (e.getReason() == BasicReason.REVOKED) {
      return new RevokedCertificateException(which + " is revoked", e);
    }
    String setting = ocsp == OcspMode.OFF ? ConfigProperty.TLS_REVOCATION_CRL_FILES.key() + " has no current CRL"
        + " for it and " + ConfigProperty.TLS_REVOCATION_OCSP.key() + "=off"
        : ConfigProperty.TLS_REVOCATION_OCSP.key() + "=" + ocsp;
    return new RevokedCertificateException(which + " has a revocation status that could not be determined ("
        + PeerText.sanitize(String.valueOf(e.getMessage())) + "), refused because " + setting, e);
  }

  /** What is wrong with the certificate, for "the client's ..." or "the server's ...". */
  String reason() {
    return reason;
  }

  private static X509Certificate at(CertPathValidatorException e, X509Certificate leaf) {
    CertPath path = e.getCertPath();
    int index = e.getIndex();
    if (path != null && index >= 0 && index < path.getCertificates().size()) {
      return (X509Certificate) path.getCertificates().get(index);
    }
    return leaf;
  }

  private static CertificateRevokedException find(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CertificateRevokedException) {
        return (CertificateRevokedException) t;
      }
    }
    return null;
  }
}
