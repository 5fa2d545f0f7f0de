package io.securethrift.testkit.ca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivateKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TestCertificateAuthorityTest {

  private static TestCertificateAuthority ca;

  @BeforeAll
  static void createCa() {
    ca = TestCertificateAuthority.create();
  }

  @Test
  void keyTypesAreNamedByTheirTokensInAnyCase() {
    assertEquals(List.of("rsa", "ec", "rsa_1024"), Arrays.stream(KeyType.values()).map(KeyType::token)
        .collect(Collectors.toList()));
    assertEquals(Optional.of(KeyType.EC), KeyType.byToken("EC"));
    assertEquals(Optional.of(KeyType.RSA), KeyType.byToken("rsa"));
    assertEquals(Optional.empty(), KeyType.byToken("dsa"));
  }

  @Test
  void rootIsASelfSignedCa() throws Exception {
    X509Certificate root = ca.certificate();

    root.verify(root.getPublicKey());
    root.checkValidity();
    assertEquals(Integer.MAX_VALUE, root.getBasicConstraints());
    boolean[] usage = root.getKeyUsage();
    assertTrue(usage[5], "keyCertSign");
    assertTrue(usage[6], "cRLSign");
    assertEquals("CN=" + TestCertificateAuthority.DEFAULT_COMMON_NAME,
        root.getSubjectX500Principal().getName());
  }

  @Test
  void defaultLeafChainsToTheCaWithLocalhostNames() throws Exception {
    IssuedCertificate leaf = ca.leaf().issue();

    validate(leaf);
    leaf.certificate().checkValidity();
    assertEquals(List.of(leaf.certificate(), ca.certificate()), leaf.chain());
    assertEquals(-1, leaf.certificate().getBasicConstraints());
    assertEquals(Set.of("2:localhost", "7:127.0.0.1"), subjectAlternativeNames(leaf));
    assertEquals(
        List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"),
        leaf.certificate().getExtendedKeyUsage());
    assertEquals("RSA", leaf.privateKey().getAlgorithm());
    assertKeyMatches(leaf);
  }

  @Test
  void ecLeafWithCustomNamesAndValidity() throws Exception {
    Instant notBefore = Instant.parse("2020-01-01T00:00:00Z");
    Instant notAfter = Instant.parse("2040-01-01T00:00:00Z");

    IssuedCertificate leaf =
        ca.leaf()
            .commonName("zk1")
            .addSubjectAlternativeName("zk1.example")
            .addSubjectAlternativeName("10.0.0.7")
            .addSubjectAlternativeName("::1")
            .keyType(KeyType.EC)
            .validity(notBefore, notAfter)
            .issue();

    validate(leaf);
    assertEquals("EC", leaf.privateKey().getAlgorithm());
    assertEquals("CN=zk1", leaf.certificate().getSubjectX500Principal().getName());
    assertEquals(notBefore, leaf.certificate().getNotBefore().toInstant());
    assertEquals(notAfter, leaf.certificate().getNotAfter().toInstant());
    assertEquals(
        Set.of("2:zk1.example", "7:10.0.0.7", "7:0:0:0:0:0:0:0:1"), subjectAlternativeNames(leaf));
    assertKeyMatches(leaf);
  }

  @Test
  void ecCaSignsRsaLeaf() throws Exception {
    TestCertificateAuthority ecCa = TestCertificateAuthority.create("ec CA", KeyType.EC);
    IssuedCertificate leaf = ecCa.leaf().issue();

    leaf.certificate().verify(ecCa.certificate().getPublicKey());
    assertEquals("SHA256withECDSA", leaf.certificate().getSigAlgName());
  }

  @Test
  void expiredCertificateIsExpired() {
    IssuedCertificate expired = ca.expired();

    assertThrows(CertificateExpiredException.class, () -> expired.certificate().checkValidity());
    assertThrows(CertPathValidatorException.class, () -> validate(expired));
  }

  @Test
  void notYetValidCertificateIsNotYetValid() {
    IssuedCertificate early = ca.notYetValid();

    assertThrows(
        CertificateNotYetValidException.class, () -> early.certificate().checkValidity());
  }

  @Test
  void certificateOfAnotherCaDoesNotVerify() throws Exception {
    IssuedCertificate foreign = ca.signedByOtherCa();

    foreign.certificate().verify(foreign.chain().get(1).getPublicKey());
    assertThrows(
        SignatureException.class,
        () -> foreign.certificate().verify(ca.certificate().getPublicKey()));
    assertThrows(CertPathValidatorException.class, () -> validate(foreign));
  }

  @Test
  void wrongSanNamesOnlyWrongExample() throws Exception {
    IssuedCertificate wrong = ca.wrongSubjectAlternativeName();

    validate(wrong);
    assertEquals(Set.of("2:wrong.example"), subjectAlternativeNames(wrong));
  }

  @Test
  void certificateIssuedByNonCaFailsPathValidation() throws Exception {
    IssuedCertificate bad = ca.issuedByNonCa();

    X509Certificate issuer = bad.chain().get(1);
    assertEquals(-1, issuer.getBasicConstraints());
    bad.certificate().verify(issuer.getPublicKey());
    assertEquals(ca.certificate(), bad.chain().get(2));
    assertThrows(CertPathValidatorException.class, () -> validate(bad));
  }

  @Test
  void validForSetsAnIntervalStartingNow() {
    Instant before = Instant.now();
    IssuedCertificate leaf = ca.leaf().validFor(Duration.ofHours(2)).issue();

    Instant notAfter = leaf.certificate().getNotAfter().toInstant();
    assertTrue(notAfter.isAfter(before.plus(Duration.ofMinutes(118))), notAfter.toString());
    assertTrue(notAfter.isBefore(before.plus(Duration.ofMinutes(122))), notAfter.toString());
    assertThrows(
        IllegalArgumentException.class,
        () -> ca.leaf().validity(Instant.now(), Instant.now().minusSeconds(1)));
  }

  /** Validates the chain (without the root) against the CA as the only trust anchor. */
  static void validate(IssuedCertificate issued) throws Exception {
    List<X509Certificate> path = issued.chain().subList(0, issued.chain().size() - 1);
    PKIXParameters parameters =
        new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX")
        .validate(CertificateFactory.getInstance("X.509").generateCertPath(path), parameters);
  }

  static Set<String> subjectAlternativeNames(IssuedCertificate issued) throws Exception {
    return issued.certificate().getSubjectAlternativeNames().stream()
        .map(name -> name.get(0) + ":" + name.get(1))
        .collect(Collectors.toSet());
  }

  static void assertKeyMatches(IssuedCertificate issued) throws Exception {
    PrivateKey key = issued.privateKey();
    String algorithm = "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
    byte[] data = {1, 2, 3};
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(data);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(issued.certificate().getPublicKey());
    verifier.update(data);
    assertTrue(verifier.verify(signature));
  }
}
