package io.securethrift.tls;

import io.securethrift.core.identity.PeerText;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.x500.X500Principal;

/**
 * Who a certificate says it is, as a reload compares it before a rotated certificate may replace the one in use: the
 * subject distinguished name, the set of subject alternative names, and the first DNS, e-mail and URI name, which
 * principal mappings {@code san-dns}, {@code san-email} and {@code san-uri} read. Names are compared exactly as the
 * peer's principal mapping and hostname check see them: the subject as RFC 2253 text (so a change of case, which
 * mapping {@code cn} or {@code subject} would pass on, counts), each alternative name as its type and text. Serial
 * number, validity, key and issuer are not part of it: a renewal changes them all.
 */
final class CertificateIdentity {
  private static final String[] SAN_LABELS = {"otherName", "email", "DNS", "x400Address", "dirName", "ediPartyName",
      "URI", "IP", "registeredID"};
  /** The name types whose first entry a principal mapping takes. */
  private static final String[] MAPPED_LABELS = {"DNS", "email", "URI"};

  private final X509Certificate certificate;
  private final String subject;
  /** {@code type:text}, in the certificate's order. */
  private final List<String> alternativeNames;

  private CertificateIdentity(X509Certificate certificate) {
    this.certificate = certificate;
    this.subject = certificate.getSubjectX500Principal().getName(X500Principal.RFC2253);
    this.alternativeNames = alternativeNames(certificate);
  }

  static CertificateIdentity of(X509Certificate certificate) {
    return new CertificateIdentity(certificate);
  }

  /** The certificate this identity was read from. */
  X509Certificate certificate() {
    return certificate;
  }

  /** Whether {@code other} names the same subject, the same set of alternative names and the same first ones. */
  boolean sameAs(CertificateIdentity other) {
    return changesTo(other).isEmpty();
  }

  /**
   * What {@code next} names differently, escaped with {@link PeerText}, empty when nothing: {@code subject CN=a became
   * CN=b}, {@code alternative names added DNS:x, removed DNS:y}, {@code first DNS name x became y}, joined by "; ".
   */
  String changesTo(CertificateIdentity next) {
    List<String> changes = new ArrayList<>();
    if (!subject.equals(next.subject)) {
      changes.add("subject " + PeerText.sanitize(subject) + " became " + PeerText.sanitize(next.subject));
    }
    List<String> parts = new ArrayList<>();
    List<String> added = missingFrom(next.alternativeNames, alternativeNames);
    if (!added.isEmpty()) {
      parts.add("added " + String.join(", ", added));
    }
    List<String> removed = missingFrom(alternativeNames, next.alternativeNames);
    if (!removed.isEmpty()) {
      parts.add("removed " + String.join(", ", removed));
    }
    if (!parts.isEmpty()) {
      changes.add("alternative names " + String.join(", ", parts));
    }
    for (String label : MAPPED_LABELS) {
      Optional<String> first = first(label);
      Optional<String> nextFirst = next.first(label);
      if (!first.equals(nextFirst)) {
        changes.add("first " + label + " name " + first.map(PeerText::sanitize).orElse("(none)") + " became "
            + nextFirst.map(PeerText::sanitize).orElse("(none)"));
      }
    }
    return String.join("; ", changes);
  }

  /**
   * The subject, alternative names, serial number and end of validity, escaped with {@link PeerText}: {@code subject
   * CN=a, alternative names DNS:a, IP:127.0.0.1, serial 1f, valid until 2027-01-01T00:00:00Z}.
   */
  String describe() {
    StringBuilder s = new StringBuilder("subject ").append(PeerText.sanitize(subject));
    if (!alternativeNames.isEmpty()) {
      List<String> names = new ArrayList<>();
      alternativeNames.forEach(name -> names.add(PeerText.sanitize(name)));
      s.append(", alternative names ").append(String.join(", ", names));
    }
    return s.append(", serial ").append(certificate.getSerialNumber().toString(16))
        .append(", valid until ").append(certificate.getNotAfter().toInstant()).toString();
  }

  private Optional<String> first(String label) {
    String prefix = label + ":";
    return alternativeNames.stream().filter(n -> n.startsWith(prefix)).map(n -> n.substring(prefix.length()))
        .findFirst();
  }

  /** The names of {@code names} that {@code other} lacks, escaped, in order, each once. */
  private static List<String> missingFrom(List<String> names, List<String> other) {
    Set<String> missing = new LinkedHashSet<>(names);
    missing.removeAll(other);
    List<String> escaped = new ArrayList<>();
    missing.forEach(name -> escaped.add(PeerText.sanitize(name)));
    return escaped;
  }

  private static List<String> alternativeNames(X509Certificate certificate) {
    Collection<List<?>> entries;
    try {
      entries = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      // Unreadable names cannot be compared name by name; the raw extension stands for them, so any change counts.
      return List.of("(unreadable:" + hex(Objects.requireNonNullElse(certificate.getExtensionValue("2.5.29.17"),
          new byte[0])) + ")");
    }
    List<String> names = new ArrayList<>();
    for (List<?> entry : entries == null ? List.<List<?>>of() : entries) {
      int type = (Integer) entry.get(0);
      Object value = entry.get(1);
      String label = type >= 0 && type < SAN_LABELS.length ? SAN_LABELS[type] : "type" + type;
      names.add(label + ":" + (value instanceof byte[] ? hex((byte[]) value) : String.valueOf(value)));
    }
    return List.copyOf(names);
  }

  /** DER values (other names, X.400 addresses, EDI party names) as the JDK hands them over, in hexadecimal. */
  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      s.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return s.toString();
  }

  /** The subject, names, serial and end of validity, escaped (as {@link #describe()}). */
  @Override
  public String toString() {
    return describe();
  }
}
