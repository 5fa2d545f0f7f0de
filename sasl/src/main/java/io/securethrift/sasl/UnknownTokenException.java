package io.securethrift.sasl;

import javax.security.sasl.SaslException;

/** A DIGEST-MD5 client named a delegation token this server does not know: the audit's unknown-principal. */
final class UnknownTokenException extends SaslException {
  private static final long serialVersionUID = 1L;

  UnknownTokenException() {
    super("unknown or expired delegation token");
  }
}
