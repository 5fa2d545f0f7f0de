package io.securethrift.core;

import org.apache.thrift.transport.TTransport;

/**
 * A connected transport that knows who its peer is. Everything securethrift's factories return is one, whatever the
 * mode, so code can ask how a connection was secured without knowing the layers.
 */
public abstract class SecuredTransport extends TTransport {
  /** The peer and how the connection to it was secured. */
  public abstract PeerIdentity peerIdentity();
}
