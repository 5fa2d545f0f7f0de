package io.securethrift.accumulo;

import java.security.AccessController;
import javax.security.auth.Subject;
import org.junit.jupiter.api.Assumptions;

/** Where Hadoop's {@code UserGroupInformation}, which Accumulo's Kerberos client and Hadoop RPC use, can run. */
public final class HadoopUgi {
  private HadoopUgi() {}

  /**
   * Aborts the test, as skipped, where Hadoop 3.3.6's {@code UserGroupInformation} cannot run: it calls {@code
   * Subject.getSubject}, which Java 23 and later refuse without a security manager (securethrift's own code uses
   * {@code Subject.current()}).
   */
  @SuppressWarnings("removal")
  public static void assumeRuns() {
    try {
      Subject.getSubject(AccessController.getContext());
    } catch (UnsupportedOperationException e) {
      Assumptions.abort("Hadoop 3.3.6's UserGroupInformation calls Subject.getSubject, which Java "
          + Runtime.version().feature() + " refuses: " + e.getMessage());
    }
  }
}
