package io.securethrift.core.transport;

/**
 * The connection a client transport sends on now: the transport itself, or the one a renewing transport (a client
 * maximum age, or a Kerberos connection renewed before its ticket ends) has open; for tests that look at the layer's
 * own transport.
 */
public final class OpenConnection {
  private OpenConnection() {}

  public static SecuredTransport of(SecuredTransport transport) {
    return transport instanceof RenewingTransport ? ((RenewingTransport) transport).current() : transport;
  }
}
