package io.securethrift.core.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.Limits;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testing.EchoConnection;
import io.securethrift.core.testing.ParserOracle;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.function.Function;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransport;

/**
 * Fuzzes what a server reads from a connection in the none and tls modes: Thrift frames through
 * {@link FramedTransport}, decoded by the binary or compact protocol and dispatched by the echo service's generated
 * processor. The input is everything the client sends. Seeds and regression inputs:
 * {@code src/test/resources/io/securethrift/core/transport/FramedTransportFuzzTestInputs/<method>/}.
 */
class FramedTransportFuzzTest {
  private static final PeerIdentity PEER =
      TestIdentities.builder(SecurityMode.NONE, new InetSocketAddress("127.0.0.1", 1)).build();
  /** The production defaults, so a finding is one a default server has. */
  private static final Limits LIMITS = SecurityConfig.builder().build().limits();

  @FuzzTest(maxDuration = "60s")
  void compactProtocol(byte[] wire) {
    check(wire, TCompactProtocol::new);
  }

  @FuzzTest(maxDuration = "60s")
  void binaryProtocol(byte[] wire) {
    check(wire, TBinaryProtocol::new);
  }

  private static void check(byte[] wire, Function<TTransport, TProtocol> protocol) {
    ParserOracle.expectOnlyWithinAllocation(wire.length, () -> {
      TTransport client = new TIOStreamTransport(new ByteArrayInputStream(wire), OutputStream.nullOutputStream());
      EchoConnection.serveUntilFailure(new FramedTransport(client, PEER, LIMITS, Role.SERVER), protocol, wire.length);
    }, TException.class);
  }
}
