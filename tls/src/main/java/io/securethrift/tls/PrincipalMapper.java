package io.securethrift.tls;

import io.securethrift.core.PrincipalMapping;
import io.securethrift.core.identity.PeerText;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * Names a peer from its leaf certificate by the configured {@link PrincipalMapping}; empty when the field is absent.
 * The name is returned exactly as certified; whoever logs it escapes it with {@link PeerText}.
 */
final class PrincipalMapper {
  private static final int SAN_EMAIL = 1;
  private static final int SAN_DNS = 2;
  private static final int SAN_URI = 6;
  private static final int SAN_IP = 7;
  /** The alternative-name types worth showing in a message: those hostname verification and mapping read. */
  private static final Map<Integer, String> SAN_LABELS = Map.of(SAN_EMAIL, "email", SAN_DNS, "DNS", SAN_URI, "URI",
      SAN_IP, "IP");

  private PrincipalMapper() {}

  static Optional<String> map(PrincipalMapping mapping, X509Certificate leaf) {
    switch (mapping) {
      case SUBJECT:
        return Optional.of(leaf.getSubjectX500Principal().getName(X500Principal.RFC2253));
      case CN:
        return commonName(leaf);
      case SAN_DNS:
        return alternativeName(leaf, SAN_DNS);
      case SAN_EMAIL:
        return alternativeName(leaf, SAN_EMAIL);
      case SAN_URI:
        return alternativeName(leaf, SAN_URI);
      default:
        throw new IllegalArgumentException("no principal rule for mapping " + mapping);
    }
  }

  /**
   * The certificate's subject and alternative names for an error message, escaped with {@link PeerText}: a CA signs
   * whatever text an applicant put there, line breaks and terminal escapes included.
   */
  static String describe(X509Certificate leaf) {
    StringBuilder s = new StringBuilder("subject ")
        .append(leaf.getSubjectX500Principal().getName(X500Principal.RFC2253));
    List<String> names = new ArrayList<>();
    try {
      Collection<List<?>> alternatives = leaf.getSubjectAlternativeNames();
      for (List<?> name : alternatives == null ? List.<List<?>>of() : alternatives) {
        String label = SAN_LABELS.get((Integer) name.get(0));
        if (label != null) {
          names.add(label + ":" + name.get(1));
        }
      }
    } catch (CertificateParsingException e) {
      names.add("(unreadable)");
    }
    if (!names.isEmpty()) {
      s.append(", alternative names ").append(String.join(", ", names));
    }
    return PeerText.sanitize(s.toString());
  }

  private static Optional<String> commonName(X509Certificate leaf) {
    try {
      List<Rdn> rdns = new LdapName(leaf.getSubjectX500Principal().getName(X500Principal.RFC2253)).getRdns();
      // LdapName lists RDNs from the least significant; the most specific CN is the last one found.
      String cn = null;
      for (Rdn rdn : rdns) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          cn = String.valueOf(rdn.getValue());
        }
      }
      return Optional.ofNullable(cn);
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> alternativeName(X509Certificate leaf, int type) {
    try {
      Collection<List<?>> names = leaf.getSubjectAlternativeNames();
      if (names == null) {
        return Optional.empty();
      }
      return names.stream().filter(n -> ((Integer) n.get(0)) == type).map(n -> String.valueOf(n.get(1))).findFirst();
    } catch (CertificateParsingException e) {
      return Optional.empty();
    }
  }
}
