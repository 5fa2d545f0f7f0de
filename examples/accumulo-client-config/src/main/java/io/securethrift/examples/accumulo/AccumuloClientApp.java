package io.securethrift.examples.accumulo;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.nio.file.Path;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMultiplexedProtocol;

/**
 * An application that secures its Thrift calls exactly as the Accumulo client it sits next to would, from the same
 * {@code accumulo-client.properties}. Run {@code AccumuloClientApp accumulo-client.properties localhost 9997}.
 */
public final class AccumuloClientApp {
  private AccumuloClientApp() {}

  /** Connects with the security the client file describes and asks the server for its status. */
  public static String status(Path clientProperties, String host, int port) throws TException {
    // ssl.enabled, ssl.truststore.*, ssl.keystore.* (a key store means a client certificate), with Accumulo's defaults.
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(clientProperties);
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        SecuredTransport transport = factory.open(host, port)) {
      TMultiplexedProtocol protocol = new TMultiplexedProtocol(transport.protocol(new TCompactProtocol.Factory()),
          TabletServerStandIn.SERVICE);
      return new TabletStatus.Client(protocol).status();
    }
  }

  public static void main(String[] args) throws TException {
    System.out.println(status(Path.of(args[0]), args[1], Integer.parseInt(args[2])));
  }
}
