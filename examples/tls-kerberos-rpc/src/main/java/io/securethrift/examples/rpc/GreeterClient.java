package io.securethrift.examples.rpc;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.nio.file.Path;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;

/**
 * Calls a Greeter over TLS and Kerberos. Run {@code GreeterClient client.properties localhost 9090}: the file holds
 * the {@code securethrift.*} keys (mode {@code sasl-over-tls}, trust store, the client's principal and keytab).
 */
public final class GreeterClient {
  private GreeterClient() {}

  /** Connects (TLS handshake, then Kerberos), calls {@code greet} once and closes. */
  public static String greet(SecurityConfig config, String host, int port, String message) throws TException {
    // An application keeps one factory per configuration: it holds the TLS context and the Kerberos login.
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        SecuredTransport transport = factory.open(host, port)) {
      // transport.protocol bounds every length the server declares by the bytes it really sent.
      Greeter.Client greeter = new Greeter.Client(transport.protocol(new TCompactProtocol.Factory()));
      return greeter.greet(message);
    }
  }

  public static void main(String[] args) throws TException {
    SecurityConfig config = SecurityConfigFiles.read(Path.of(args[0]), "the client's configuration file");
    System.out.println(greet(config, args[1], Integer.parseInt(args[2]), "Hello"));
  }
}
