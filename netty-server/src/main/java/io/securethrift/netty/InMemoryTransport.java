package io.securethrift.netty;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;

/**
 * A transport over bytes already in memory or handed to Netty, under core's framed transport: the frame limits are
 * enforced above it, so its own message-size accounting has nothing to do.
 */
abstract class InMemoryTransport extends TTransport {
  @Override
  public TConfiguration getConfiguration() {
    return TConfiguration.DEFAULT;
  }

  @Override
  public void updateKnownMessageSize(long size) {
    // Bounded by the framed transport above.
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) {
    // Bounded by the framed transport above.
  }

  /** Declared without @Override: libthrift added this abstract method in 0.25 and 0.17 lacks it. */
  public void resetMessageSizeAndConsumedBytes(long newSize) {
    // Bounded by the framed transport above.
  }
}
