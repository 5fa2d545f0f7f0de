package io.securethrift.sasl;

import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.Oid;

/** What both sides of securethrift's GSSAPI mechanism need of a Kerberos GSS context. */
final class Krb5Contexts {
  /** The Kerberos V5 mechanism (RFC 1964), the one GSSAPI SASL runs. */
  static final Oid MECHANISM = oid("1.2.840.113554.1.2.2");

  private Krb5Contexts() {}

  static void dispose(GSSContext context) {
    try {
      context.dispose();
    } catch (GSSException ignored) {
      // Disposal only releases the context's keys early; the connection is over either way.
    }
  }

  private static Oid oid(String dotted) {
    try {
      return new Oid(dotted);
    } catch (GSSException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
