package io.securethrift.core.spi;

import org.apache.thrift.transport.TTransportException;

/**
 * Thrown by a client {@link MessageLayer} whose peer turned down something only this side offered (SASL privacy
 * {@code aes-gcm-preferred} against a peer that closes on the key exchange) and whose configuration allows doing
 * without it: the connection is gone, and the client factory connects once more, which the layer now opens the
 * plain way.
 */
public final class ReconnectForFallback extends TTransportException {
  private static final long serialVersionUID = 1L;

  public ReconnectForFallback(String message, Throwable cause) {
    super(TTransportException.END_OF_FILE, message, cause);
  }
}
