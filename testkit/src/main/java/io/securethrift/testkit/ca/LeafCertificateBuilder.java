package io.securethrift.testkit.ca;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x509.GeneralName;

/**
 * Describes a TLS server/client certificate to issue from a {@link TestCertificateAuthority}.
 *
 * <p>Defaults: common name {@code localhost}, subject alternative names DNS {@code localhost} and
 * IP {@code 127.0.0.1} (used only if none are added), RSA 2048 key, valid from one minute ago (to
 * tolerate clock differences) for one day.
 *
 * <pre>{@code
 * IssuedCertificate server = ca.leaf().commonName("zk1").addSubjectAlternativeName("zk1.example")
 *     .keyType(KeyType.EC).issue();
 * }</pre>
 */
public final class LeafCertificateBuilder {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final IssuedCertificate issuer;
  private String commonName = "localhost";
  private final List<GeneralName> subjectAlternativeNames = new ArrayList<>();
  private KeyType keyType = KeyType.RSA;
  private Instant notBefore;
  private Instant notAfter;
  private String ocspResponder;

  LeafCertificateBuilder(IssuedCertificate issuer) {
    this.issuer = issuer;
  }

  /** Sets the subject's common name. */
  public LeafCertificateBuilder commonName(String commonName) {
    this.commonName = Objects.requireNonNull(commonName, "commonName");
    return this;
  }

  /**
   * Adds a subject alternative name: an IP address entry if {@code name} is an IPv4 or IPv6
   * literal, otherwise a DNS name entry (which may be a wildcard such as {@code *.example.com}).
   */
  public LeafCertificateBuilder addSubjectAlternativeName(String name) {
    Objects.requireNonNull(name, "name");
    boolean ip = IPV4.matcher(name).matches() || name.contains(":");
    subjectAlternativeNames.add(
        new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name));
    return this;
  }

  /** Sets the key algorithm; default {@link KeyType#RSA}. */
  public LeafCertificateBuilder keyType(KeyType keyType) {
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    return this;
  }

  /**
   * Sets the validity interval. Any interval is accepted, including ones entirely in the past or
   * future, because tests need exactly those.
   */
  public LeafCertificateBuilder validity(Instant notBefore, Instant notAfter) {
    Objects.requireNonNull(notBefore, "notBefore");
    Objects.requireNonNull(notAfter, "notAfter");
    if (notAfter.isBefore(notBefore)) {
      throw new IllegalArgumentException("notAfter must not be before notBefore");
    }
    this.notBefore = notBefore;
    this.notAfter = notAfter;
    return this;
  }

  /** Makes the certificate valid from one minute ago for {@code duration}. */
  public LeafCertificateBuilder validFor(Duration duration) {
    Instant start = Instant.now().minus(Duration.ofMinutes(1));
    return validity(start, start.plus(duration));
  }

  /**
   * Names an OCSP responder in the certificate's Authority Information Access extension, where OCSP clients look
   * for it (for example {@link OcspResponder#url()}); default none.
   */
  public LeafCertificateBuilder ocspResponder(String url) {
    this.ocspResponder = Objects.requireNonNull(url, "url");
    return this;
  }

  /** Generates the key pair and signs the certificate. */
  public IssuedCertificate issue() {
    Instant start = notBefore != null ? notBefore : Instant.now().minus(Duration.ofMinutes(1));
    Instant end = notAfter != null ? notAfter : start.plus(Duration.ofDays(1));
    List<GeneralName> sans =
        subjectAlternativeNames.isEmpty()
            ? List.of(
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"))
            : List.copyOf(subjectAlternativeNames);
    KeyPair keys = keyType.generate();
    X509Certificate certificate =
        CertificateSigner.leaf(
            commonName,
            keys.getPublic(),
            sans,
            start,
            end,
            ocspResponder,
            issuer.certificate(),
            issuer.privateKey());
    List<X509Certificate> chain = new ArrayList<>();
    chain.add(certificate);
    chain.addAll(issuer.chain());
    return new IssuedCertificate(chain, keys.getPrivate());
  }
}
