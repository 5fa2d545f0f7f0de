package io.securethrift.core.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testservice.LogCapture;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;

/** What every server model must show for a client refused as revoked, so their revocation tests check one thing. */
public final class RevokedPeer {
  private RevokedPeer() {}

  /** A serial number as OpenSSL prints it, and as securethrift's messages name it: upper-case hex, whole bytes. */
  public static String serial(X509Certificate certificate) {
    String hex = certificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
    return hex.length() % 2 == 0 ? hex : "0" + hex;
  }

  /**
   * Waits for one {@code tls-alert} refusal in {@code counters} and checks its audit line: it names the revoked client
   * certificate by serial and subject, and says it is revoked with the CRL's or responder's reason.
   */
  public static void assertRefusedAndAudited(LogCapture log, AuthCounters counters, X509Certificate revoked,
      String commonName, Duration wait) throws InterruptedException {
    Await.until("a tls-alert failure", wait, () -> counters.failures(AuthFailure.TLS_ALERT) == 1);
    String audit = log.awaitLines(" cause=tls-alert ", 1, wait).get(0);
    assertTrue(audit.contains("the client's certificate serial " + serial(revoked) + " (subject CN=" + commonName),
        audit);
    assertTrue(audit.contains(") is revoked: reason KEY_COMPROMISE, since "), audit);
  }
}
