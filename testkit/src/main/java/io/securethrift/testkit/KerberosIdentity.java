package io.securethrift.testkit;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A principal of an {@link EmbeddedKdc} together with the keytab that holds its keys.
 *
 * <p>The keytab is what a test hands to the code under test (for example as
 * {@code general.kerberos.keytab}); the password, if any, is never kept here so that it cannot leak into logs.
 */
public final class KerberosIdentity {
  private final String principal;
  private final Path keytab;

  /**
   * Checks that both parts are present, so that a half-built identity fails where it is made.
   *
   * @param principal fully qualified principal name, {@code name@REALM} or {@code service/host@REALM}
   * @param keytab keytab file containing only this principal's keys
   */
  public KerberosIdentity(String principal, Path keytab) {
    this.principal = Objects.requireNonNull(principal, "principal");
    this.keytab = Objects.requireNonNull(keytab, "keytab");
  }

  /** The fully qualified principal name, {@code name@REALM} or {@code service/host@REALM}. */
  public String principal() {
    return principal;
  }

  /** The keytab file containing only this principal's keys. */
  public Path keytab() {
    return keytab;
  }

  /** Returns the part before {@code @}, e.g. {@code accumulo/localhost}. */
  public String shortName() {
    int at = principal.lastIndexOf('@');
    return at < 0 ? principal : principal.substring(0, at);
  }

  /** Returns the realm, the part after {@code @}. */
  public String realm() {
    int at = principal.lastIndexOf('@');
    return at < 0 ? "" : principal.substring(at + 1);
  }
}
