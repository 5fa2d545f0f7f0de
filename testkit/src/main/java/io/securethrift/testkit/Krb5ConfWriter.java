package io.securethrift.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Writes the krb5.conf that the JDK's Kerberos implementation reads (and, for {@link MitKdc}, MIT's programs).
 *
 * <p>Kerby writes a krb5.conf of its own, but it lacks the settings the JDK needs to behave
 * predictably in a test JVM without DNS: TCP only ({@code udp_preference_limit = 1}, because the
 * JDK does not fall back from a failed UDP attempt), no DNS look-ups or reverse look-ups, the
 * enctypes the KDC issues, and the ticket lifetimes the test asked for.
 */
final class Krb5ConfWriter {

  /** The enctypes of Kerby's KDC: Kerby cannot issue RFC 8009's (MIT's can). */
  static final String ENCTYPES = "aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96";

  private Krb5ConfWriter() {}

  static void write(
      Path file,
      String realm,
      String host,
      int port,
      String enctypes,
      Duration ticketLifetime,
      Duration renewableLifetime,
      Duration clockSkew)
      throws IOException {
    String text =
        String.join(
            "\n",
            "[libdefaults]",
            "    default_realm = " + realm,
            "    udp_preference_limit = 1",
            "    dns_lookup_kdc = false",
            "    dns_lookup_realm = false",
            "    dns_canonicalize_hostname = false",
            "    rdns = false",
            "    default_tkt_enctypes = " + enctypes,
            "    default_tgs_enctypes = " + enctypes,
            "    permitted_enctypes = " + enctypes,
            "    ticket_lifetime = " + ticketLifetime.toSeconds(),
            "    renew_lifetime = " + renewableLifetime.toSeconds(),
            "    clockskew = " + clockSkew.toSeconds(),
            "    forwardable = true",
            "",
            "[realms]",
            "    " + realm + " = {",
            "        kdc = " + host + ":" + port,
            "    }",
            "",
            "[domain_realm]",
            "    " + host + " = " + realm,
            "    ." + host + " = " + realm,
            "");
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
