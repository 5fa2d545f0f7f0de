package io.securethrift.core;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import io.securethrift.core.testservice.EchoServer;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.function.Function;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransport;

/**
 * Fuzzes what a server reads from a connection in the none and tls modes: Thrift frames through
 * {@link FramedTransport}, decoded by the binary or compact protocol and dispatched by the echo service's generated
 * processor, wrapped the way servers wrap it. The input is everything the client sends. Seeds and regression inputs:
 * {@code src/test/resources/io/securethrift/core/FramedTransportFuzzTestInputs/<method>/}.
 */
class FramedTransportFuzzTest {
  private static final PeerIdentity PEER =
      PeerIdentity.builder(SecurityMode.NONE, new InetSocketAddress("127.0.0.1", 1)).build();
  /** The production defaults, so a finding is one a default server has. */
  private static final Limits LIMITS = SecurityConfig.builder().build().limits();
  private static final TProcessor PROCESSOR;

  static {
    try (ServerTransportFactory factory = ServerTransportFactory.create(SecurityConfig.builder().build())) {
      PROCESSOR = factory.withPeerIdentity(EchoServer.processor());
    }
  }

  @FuzzTest(maxDuration = "60s")
  void compactProtocol(byte[] wire) {
    check(wire, TCompactProtocol::new);
  }

  @FuzzTest(maxDuration = "60s")
  void binaryProtocol(byte[] wire) {
    check(wire, TBinaryProtocol::new);
  }

  private static void check(byte[] wire, Function<TTransport, TProtocol> protocol) {
    ParserOracle.expectOnlyWithinAllocation(wire.length, () -> serve(wire, protocol), TException.class);
  }

  /**
   * Serves one connection as {@code TThreadPoolServer} does: call after call until reading fails, which it must, since
   * every call consumes at least one byte; the error that ends the connection is what the oracle judges.
   */
  private static void serve(byte[] wire, Function<TTransport, TProtocol> protocol) throws TException {
    TTransport connection = new TIOStreamTransport(new ByteArrayInputStream(wire), OutputStream.nullOutputStream());
    FramedTransport framed = new FramedTransport(connection, PEER, LIMITS);
    TProtocol in = protocol.apply(framed);
    TProtocol out = protocol.apply(framed);
    for (int call = 0; call <= wire.length; call++) {
      PROCESSOR.process(in, out);
    }
    throw new AssertionError("the processor kept going after " + wire.length + " calls on " + wire.length + " bytes");
  }
}
