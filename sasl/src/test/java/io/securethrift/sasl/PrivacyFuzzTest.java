package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.Limits;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testing.EchoConnection;
import io.securethrift.core.testing.ParserOracle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Fuzzes what AES-GCM privacy parses from a peer: the server reading a hello, the client reading an answer, and the
 * server's data phase reading records. Hellos and answers are the bytes inside the mechanism's wrap, so they are
 * fuzzed as they arrive once unwrapped; a forged answer must never yield keys. Records come from a script as in
 * {@link SaslTransportFuzzTest}, played by a client whose exchange with the server really ran over a DIGEST-MD5
 * {@code auth-conf} pair: op 0 raw bytes, op 1 a sealed record of the data, op 2 the same with the byte at position
 * (2 bytes, modulo its length) XORed with a mask (1 byte), op 3 a record whose header declares its length plus a
 * delta (1 signed byte). Seeds: {@code PrivacyFuzzTestInputs/<method>/}.
 */
class PrivacyFuzzTest {
  private static final Limits LIMITS = SecurityConfig.builder().build().limits();
  private static final byte[] HELLO = PrivacyExchange.hello(new byte[32]);

  @FuzzTest(maxDuration = "60s")
  void hello(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> PrivacyExchange.answer(input, input.length),
        TTransportException.class);
  }

  @FuzzTest(maxDuration = "60s")
  void answer(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length,
        () -> assertNull(PrivacyExchange.finish(HELLO, input, input.length), "keys from a forged answer"),
        TTransportException.class);
  }

  @FuzzTest(maxDuration = "60s")
  void records(byte[] script) {
    ParserOracle.expectOnlyWithinAllocation(script.length, () -> {
      DigestPair pair = DigestPair.negotiate(QualityOfProtection.AUTH_CONF);
      PeerIdentity identity = TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress("127.0.0.1", 1))
          .principal("fuzzer").sasl("DIGEST-MD5", QualityOfProtection.AUTH_CONF).build();
      SaslData server = SaslData.server(pair.server, identity, identity, LIMITS, SaslPrivacy.AES_GCM, null);
      byte[] hello = PrivacyExchange.hello();
      byte[] token = pair.client.wrap(hello, 0, hello.length);
      server.unwrap(token, token.length);
      byte[] reply = server.takeReply();
      byte[] answer = pair.client.unwrap(reply, 0, reply.length);
      SaslData client = SaslData.client(pair.client, identity, LIMITS,
          PrivacyExchange.finish(hello, answer, answer.length), null);
      byte[] wire = play(script, client);
      TTransport stream = new TIOStreamTransport(new ByteArrayInputStream(wire), OutputStream.nullOutputStream());
      EchoConnection.serveUntilFailure(new SaslTransport(stream, server, LIMITS, Role.SERVER), TCompactProtocol::new,
          wire.length);
    }, TException.class);
  }

  /** What the client's side puts on the wire for {@code script}. */
  private static byte[] play(byte[] script, SaslData client) throws TTransportException {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    ByteBuffer in = ByteBuffer.wrap(script);
    while (in.remaining() >= 3) {
      int op = in.get() & 3;
      byte[] data = new byte[Math.min(in.getShort() & 0xffff, in.remaining())];
      in.get(data);
      if (op == 0) {
        wire.writeBytes(data);
      } else if (op == 1) {
        frame(wire, client.wrap(data, 0, data.length), 0);
      } else if (op == 2 && data.length >= 3) {
        byte[] record = client.wrap(data, 3, data.length - 3);
        record[((data[0] & 0xff) << 8 | (data[1] & 0xff)) % record.length] ^= data[2];
        frame(wire, record, 0);
      } else if (op == 3 && data.length >= 1) {
        frame(wire, client.wrap(data, 1, data.length - 1), data[0]);
      }
    }
    return wire.toByteArray();
  }

  private static void frame(ByteArrayOutputStream wire, byte[] record, int lengthDelta) {
    wire.writeBytes(ByteBuffer.allocate(4).putInt(record.length + lengthDelta).array());
    wire.writeBytes(record);
  }
}
