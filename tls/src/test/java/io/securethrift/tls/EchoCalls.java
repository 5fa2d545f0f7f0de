package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.nio.ByteBuffer;
import org.apache.thrift.TException;

/** Calls to an {@link EchoServer} on localhost, each over a new client transport factory and connection. */
final class EchoCalls {
  private EchoCalls() {}

  /** One call over a new connection: what the server says the caller is. */
  static String call(SecurityConfig client, int port) throws TException {
    try (ClientTransportFactory factory = ClientTransportFactory.create(client);
        SecuredTransport transport = factory.open("localhost", port)) {
      return EchoServer.client(transport).whoAmI();
    }
  }

  /** The client's error: a TLS 1.3 client learns at its first call that the server refused its certificate. */
  static String refused(SecurityConfig client, int port) {
    return assertThrows(TException.class, () -> {
      try (ClientTransportFactory factory = ClientTransportFactory.create(client);
          SecuredTransport transport = factory.open("localhost", port)) {
        EchoServer.client(transport).echo(ByteBuffer.allocate(1));
      }
    }).getMessage();
  }
}
