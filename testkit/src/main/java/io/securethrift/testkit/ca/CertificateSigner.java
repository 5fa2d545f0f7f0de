package io.securethrift.testkit.ca;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AccessDescription;
import org.bouncycastle.asn1.x509.AuthorityInformationAccess;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Builds and signs X.509 v3 certificates with BouncyCastle, using the JDK's own providers for keys
 * and signatures so that the results are plain JDK {@link X509Certificate}s.
 */
final class CertificateSigner {

  private static final SecureRandom RANDOM = new SecureRandom();

  private CertificateSigner() {}

  /** Issues a self-signed root: CA:true, keyCertSign and cRLSign. */
  static X509Certificate selfSignedCa(String commonName, KeyPair keys, Instant notBefore,
      Instant notAfter) {
    X500Name name = name(commonName);
    try {
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name, serial(), Date.from(notBefore), Date.from(notAfter), name, keys.getPublic());
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      builder.addExtension(
          Extension.subjectKeyIdentifier, false,
          utils.createSubjectKeyIdentifier(keys.getPublic()));
      return sign(builder, keys.getPrivate());
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the CA certificate", e);
    }
  }

  /**
   * Issues an end-entity certificate for TLS servers and clients: CA:false, serverAuth and
   * clientAuth, the given subject alternative names.
   */
  static X509Certificate leaf(
      String commonName,
      PublicKey subjectKey,
      List<GeneralName> subjectAlternativeNames,
      Instant notBefore,
      Instant notAfter,
      String ocspResponder,
      X509Certificate issuer,
      PrivateKey issuerKey) {
    try {
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer,
              serial(),
              Date.from(notBefore),
              Date.from(notAfter),
              name(commonName),
              subjectKey);
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage(subjectKey)));
      builder.addExtension(
          Extension.extendedKeyUsage, false,
          new ExtendedKeyUsage(
              new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
      if (!subjectAlternativeNames.isEmpty()) {
        builder.addExtension(
            Extension.subjectAlternativeName, false,
            new GeneralNames(subjectAlternativeNames.toArray(GeneralName[]::new)));
      }
      builder.addExtension(
          Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(subjectKey));
      builder.addExtension(
          Extension.authorityKeyIdentifier, false,
          utils.createAuthorityKeyIdentifier(issuer));
      if (ocspResponder != null) {
        builder.addExtension(
            Extension.authorityInfoAccess, false,
            new AuthorityInformationAccess(
                AccessDescription.id_ad_ocsp,
                new GeneralName(GeneralName.uniformResourceIdentifier, ocspResponder)));
      }
      return sign(builder, issuerKey);
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the certificate for " + commonName, e);
    }
  }

  /**
   * Issues a CRL listing {@code revoked} (reason keyCompromise, revoked a minute ago), valid from a minute ago until
   * {@code nextUpdate}.
   */
  static X509CRL crl(X509Certificate issuer, PrivateKey issuerKey, List<X509Certificate> revoked,
      Instant nextUpdate) {
    Instant now = Instant.now().minus(Duration.ofMinutes(1));
    try {
      X509v2CRLBuilder builder = new JcaX509v2CRLBuilder(issuer, Date.from(now));
      builder.setNextUpdate(Date.from(nextUpdate));
      for (X509Certificate certificate : revoked) {
        builder.addCRLEntry(certificate.getSerialNumber(), Date.from(now), CRLReason.keyCompromise);
      }
      builder.addExtension(
          Extension.authorityKeyIdentifier, false,
          new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(issuer));
      builder.addExtension(Extension.cRLNumber, false, new CRLNumber(serial()));
      return new JcaX509CRLConverter()
          .getCRL(
              builder.build(
                  new JcaContentSignerBuilder(KeyType.signatureAlgorithm(issuerKey)).build(issuerKey)));
    } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the CRL", e);
    }
  }

  private static int keyUsage(PublicKey key) {
    // RSA keys may be used for RSA key exchange; EC keys for ECDH. Both sign handshakes.
    return "EC".equals(key.getAlgorithm())
        ? KeyUsage.digitalSignature | KeyUsage.keyAgreement
        : KeyUsage.digitalSignature | KeyUsage.keyEncipherment;
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder(KeyType.signatureAlgorithm(issuerKey))
                      .build(issuerKey)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign the certificate", e);
    }
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static BigInteger serial() {
    // Random positive serials, as RFC 5280 asks for, so that re-issued certificates never clash.
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }
}
