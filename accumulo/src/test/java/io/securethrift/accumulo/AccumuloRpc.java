package io.securethrift.accumulo;

import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import org.apache.accumulo.core.clientImpl.thrift.ClientService;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.transport.TTransportException;

/**
 * Accumulo 2.1's generated {@code ClientService} client over a securethrift transport: compact protocol, multiplexed
 * under the service name {@code client}, exactly as Accumulo's own clients call it.
 */
final class AccumuloRpc implements AutoCloseable {
  private final SecuredTransport transport;
  private final ClientService.Client client;

  private AccumuloRpc(SecuredTransport transport) {
    this.transport = transport;
    this.client = new ClientService.Client(new TMultiplexedProtocol(new TCompactProtocol(transport), "client"));
  }

  /** Connects to {@code host:port}, as Accumulo lists its servers. */
  static AccumuloRpc open(ClientTransportFactory factory, String hostAndPort) throws TTransportException {
    int colon = hostAndPort.lastIndexOf(':');
    return new AccumuloRpc(factory.open(hostAndPort.substring(0, colon),
        Integer.parseInt(hostAndPort.substring(colon + 1))));
  }

  ClientService.Client client() {
    return client;
  }

  SecuredTransport transport() {
    return transport;
  }

  @Override
  public void close() {
    transport.close();
  }
}
