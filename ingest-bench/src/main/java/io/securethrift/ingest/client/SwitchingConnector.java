package io.securethrift.ingest.client;

import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransportException;

/**
 * A {@link Connector} that a running client can be moved off, as a restarted client process would be: after
 * {@link #switchTo} every new connection is the new connector's, while connections already open carry on with the one
 * that opened them (closing them, or letting them fail, moves them over through the client's retries). Every
 * connector it used stays open until this one is closed, so no open connection loses its factory.
 */
public final class SwitchingConnector implements Connector {
  private final List<Connector> used = new ArrayList<>();
  private volatile Connector current;

  /** Opens connections with {@code first} until {@link #switchTo}; closing this closes it. */
  public SwitchingConnector(Connector first) {
    switchTo(first);
  }

  /** New connections from now on are {@code next}'s; closing this closes it too. */
  public synchronized void switchTo(Connector next) {
    used.add(next);
    current = next;
  }

  @Override
  public TProtocol open(String host, int port) throws TTransportException {
    return current.open(host, port);
  }

  @Override
  public synchronized void close() {
    RuntimeException failure = null;
    for (Connector connector : used) {
      try {
        connector.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
