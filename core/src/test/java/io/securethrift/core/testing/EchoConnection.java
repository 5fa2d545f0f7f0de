package io.securethrift.core.testing;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ServerTransportFactory;
import java.util.function.Function;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransport;

/**
 * One server-side connection of the echo service, served in the calling thread (so fuzz targets can measure it) the
 * way {@code TThreadPoolServer} serves it: the generated processor behind {@link ServerTransportFactory}'s identity
 * wrapper, call after call until reading fails.
 */
public final class EchoConnection {
  private static final TProcessor PROCESSOR;

  static {
    try (ServerTransportFactory factory = ServerTransportFactory.create(SecurityConfig.builder().build())) {
      PROCESSOR = factory.withPeerIdentity(EchoServer.processor());
    }
  }

  private EchoConnection() {}

  /**
   * Serves {@code transport} until reading fails and throws what ended it. Every call consumes at least one byte of
   * the peer's {@code wireLength} bytes, so a connection that outlives that many calls is a bug of its own.
   */
  public static void serveUntilFailure(TTransport transport, Function<TTransport, TProtocol> protocol, int wireLength)
      throws TException {
    TProtocol in = protocol.apply(transport);
    TProtocol out = protocol.apply(transport);
    for (int call = 0; call <= wireLength; call++) {
      PROCESSOR.process(in, out);
    }
    throw new AssertionError("the server kept serving after " + wireLength + " calls on " + wireLength + " bytes");
  }
}
