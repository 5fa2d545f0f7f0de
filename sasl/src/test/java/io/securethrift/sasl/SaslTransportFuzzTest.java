package io.securethrift.sasl;

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
import javax.security.sasl.SaslException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransport;

/**
 * Fuzzes the SASL data phase on the server: {@link SaslTransport} unwrapping frames from a DIGEST-MD5 peer it has
 * really negotiated with, the echo processor reading the calls (compact protocol, as Accumulo). Random bytes would
 * never pass the integrity check, so the input is a script the honest client's endpoint carries out, frame by frame:
 * each record is an op byte, a 2-byte big-endian length and that many bytes of data (cut short at the end):
 * <ul>
 *   <li>op 0, raw: the data goes on the wire as is (headers and all);
 *   <li>op 1, wrap: the data is a plain message part, sent as the client would, wrapped in one frame;
 *   <li>op 2, corrupt: data = position (2 bytes), mask (1 byte), plain part; the wrapped token has the byte at
 *       position (modulo its length) XORed with the mask;
 *   <li>op 3, lie: data = delta (1 signed byte), plain part; the frame header declares the token's length plus delta.
 * </ul>
 * A new pair is negotiated for every input, so a script always meets fresh sequence numbers and cipher state. Seeds:
 * {@code SaslTransportFuzzTestInputs/<method>/}.
 */
class SaslTransportFuzzTest {
  private static final Limits LIMITS = SecurityConfig.builder().build().limits();

  @FuzzTest(maxDuration = "60s")
  void authInt(byte[] script) {
    check(QualityOfProtection.AUTH_INT, script);
  }

  @FuzzTest(maxDuration = "60s")
  void authConf(byte[] script) {
    check(QualityOfProtection.AUTH_CONF, script);
  }

  private static void check(QualityOfProtection qop, byte[] script) {
    ParserOracle.expectOnlyWithinAllocation(script.length, () -> {
      DigestPair pair = DigestPair.negotiate(qop);
      byte[] wire = play(script, pair.client);
      PeerIdentity identity = TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress("127.0.0.1", 1))
          .principal("fuzzer").sasl("DIGEST-MD5", qop).build();
      TTransport client = new TIOStreamTransport(new ByteArrayInputStream(wire), OutputStream.nullOutputStream());
      SaslData data = SaslData.server(pair.server, identity, identity, LIMITS, SaslPrivacy.GSS, null);
      EchoConnection.serveUntilFailure(new SaslTransport(client, data, LIMITS, Role.SERVER),
          TCompactProtocol::new, wire.length);
    }, TException.class);
  }

  /** What the client's side puts on the wire for {@code script}. */
  private static byte[] play(byte[] script, SaslEndpoint client) throws SaslException {
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
        byte[] token = client.wrap(data, 3, data.length - 3);
        if (token.length > 0) { // nothing to wrap makes no token
          token[((data[0] & 0xff) << 8 | (data[1] & 0xff)) % token.length] ^= data[2];
        }
        frame(wire, token, 0);
      } else if (op == 3 && data.length >= 1) {
        frame(wire, client.wrap(data, 1, data.length - 1), data[0]);
      }
    }
    return wire.toByteArray();
  }

  private static void frame(ByteArrayOutputStream wire, byte[] token, int lengthDelta) {
    wire.writeBytes(ByteBuffer.allocate(4).putInt(token.length + lengthDelta).array());
    wire.writeBytes(token);
  }
}
