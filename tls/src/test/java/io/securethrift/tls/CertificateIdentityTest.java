package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.LeafCertificateBuilder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What counts as another identity on a reload: the subject's RFC 2253 text, the set of alternative names, and the
 * first DNS, e-mail and URI name (what the san-* principal mappings take); never serial, key, validity or issuer.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class CertificateIdentityTest {
  private static CertificateIdentity identity(LeafCertificateBuilder builder) {
    return CertificateIdentity.of(builder.issue().certificate());
  }

  @Test
  void aRenewalIsTheSameIdentity(TestCertificateAuthority ca) {
    CertificateIdentity first = identity(ca.leaf().commonName("tserver").addSubjectAlternativeName("tserver.example")
        .addSubjectAlternativeName("10.0.0.1"));
    CertificateIdentity renewed = identity(ca.leaf().commonName("tserver").addSubjectAlternativeName("tserver.example")
        .addSubjectAlternativeName("10.0.0.1"));
    assertTrue(first.sameAs(renewed));
    assertEquals("", first.changesTo(renewed));
    CertificateIdentity otherCa = CertificateIdentity.of(TestCertificateAuthority.create().leaf().commonName("tserver")
        .addSubjectAlternativeName("tserver.example").addSubjectAlternativeName("10.0.0.1").issue().certificate());
    assertTrue(first.sameAs(otherCa), "another issuer, as in a CA roll, is not another identity");
  }

  @Test
  void theOrderOfNamesCountsOnlyForTheFirstOfAMappedType(TestCertificateAuthority ca) {
    CertificateIdentity dnsThenIp = identity(ca.leaf().addSubjectAlternativeName("a.example")
        .addSubjectAlternativeName("10.0.0.1"));
    CertificateIdentity ipThenDns = identity(ca.leaf().addSubjectAlternativeName("10.0.0.1")
        .addSubjectAlternativeName("a.example"));
    assertTrue(dnsThenIp.sameAs(ipThenDns));

    CertificateIdentity ab = identity(ca.leaf().addSubjectAlternativeName("a.example")
        .addSubjectAlternativeName("b.example"));
    CertificateIdentity ba = identity(ca.leaf().addSubjectAlternativeName("b.example")
        .addSubjectAlternativeName("a.example"));
    assertFalse(ab.sameAs(ba), "principal mapping san-dns would name the peer b.example");
    assertEquals("first DNS name a.example became b.example", ab.changesTo(ba));
  }

  @Test
  void subjectAndNamesAreComparedExactly(TestCertificateAuthority ca) {
    CertificateIdentity lower = identity(ca.leaf().commonName("alice").addSubjectAlternativeName("a.example"));
    CertificateIdentity upper = identity(ca.leaf().commonName("Alice").addSubjectAlternativeName("A.example"));
    assertEquals("subject CN=alice became CN=Alice; alternative names added DNS:A.example, removed DNS:a.example;"
        + " first DNS name a.example became A.example", lower.changesTo(upper));
  }

  @Test
  void addedAndRemovedNamesAreListed(TestCertificateAuthority ca) {
    CertificateIdentity before = identity(ca.leaf().commonName("tserver").addSubjectAlternativeName("a.example")
        .addSubjectAlternativeName("10.0.0.1"));
    CertificateIdentity after = identity(ca.leaf().commonName("tserver").addSubjectAlternativeName("a.example")
        .addSubjectAlternativeName("b.example").addSubjectAlternativeName("10.0.0.2"));
    assertEquals("alternative names added DNS:b.example, IP:10.0.0.2, removed IP:10.0.0.1", before.changesTo(after));
  }

  @Test
  void peerTextIsEscaped(TestCertificateAuthority ca) {
    CertificateIdentity plain = identity(ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost"));
    CertificateIdentity hostile = identity(ca.leaf().commonName("x\r\nWARN forged \u001b[31m")
        .addSubjectAlternativeName("localhost"));
    assertEquals("subject CN=tserver became CN=x\\r\\nWARN forged \\u001b[31m", plain.changesTo(hostile));
    assertTrue(hostile.describe().startsWith("subject CN=x\\r\\nWARN forged \\u001b[31m, alternative names"
        + " DNS:localhost, serial "), hostile.describe());
  }
}
