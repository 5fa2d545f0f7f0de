package io.securethrift.core.spi;

import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.SecuredTransport;
import java.util.Optional;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The message part of a security mode, for one role: Thrift framing, or the Thrift SASL protocol. It runs on top of a
 * {@link StreamLayer}'s stream, under the same handshake deadline.
 */
public interface MessageLayer extends AutoCloseable {
  /**
   * Wraps a secured stream, negotiating first if the layer needs to.
   *
   * @param stream the open stream transport
   * @param streamIdentity what the stream layer established (address, TLS details)
   * @param host the host the client dialled; null on servers
   */
  SecuredTransport open(TTransport stream, PeerIdentity streamIdentity, String host) throws TTransportException;

  /**
   * A negotiation one message at a time, for servers that read the messages themselves; empty for a layer without
   * negotiation (Thrift framing).
   *
   * @param streamIdentity what the stream layer established (address, TLS details)
   * @param replies where negotiation messages to the peer are written and flushed
   */
  default Optional<SaslNegotiator> negotiator(PeerIdentity streamIdentity, TTransport replies) {
    return Optional.empty();
  }

  /** Releases what the layer holds (Kerberos login renewal). */
  @Override
  default void close() {}
}
