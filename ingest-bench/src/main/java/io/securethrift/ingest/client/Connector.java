package io.securethrift.ingest.client;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.transport.ClientTransportFactory;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransportException;

/**
 * Opens a client's connections to the ingest service: securethrift's transports ({@link #of(SecurityConfig)}), or
 * libthrift's own SASL transport as unmodified Accumulo opens them ({@link LibthriftSaslConnector}).
 */
public interface Connector extends AutoCloseable {
  /** Opens a connection to {@code host:port} and returns its compact protocol; closing its transport closes it. */
  TProtocol open(String host, int port) throws TTransportException;

  @Override
  void close();

  /** securethrift's client transports, secured as {@code config} says. */
  static Connector of(SecurityConfig config) {
    ClientTransportFactory factory = ClientTransportFactory.create(config);
    return new Connector() {
      @Override
      public TProtocol open(String host, int port) throws TTransportException {
        return factory.open(host, port).protocol(new TCompactProtocol.Factory());
      }

      @Override
      public void close() {
        factory.close();
      }
    };
  }
}
