package io.securethrift.sasl;

/**
 * A Kerberos login from a keytab failed: wrong or unreadable keytab, unknown principal, unreachable KDC, or an
 * expired ticket that could not be renewed. The message names the principal, its realm and the keytab, never a key.
 */
public final class KerberosLoginException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  KerberosLoginException(String message) {
    super(message);
  }

  KerberosLoginException(String message, Throwable cause) {
    super(message, cause);
  }
}
