package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.security.KeyPair;
import java.util.Arrays;
import javax.security.sasl.SaslException;

/**
 * Fuzzes what securethrift's GSSAPI mechanism parses from a peer once the Kerberos context has unwrapped it: the
 * server's security layer offer, the client's choice (its first byte is taken as the layers the server offered), the
 * server's AES-GCM key reply (which must never confirm keys it did not make), and AES-GCM records opened under keys
 * the input never saw (which must never open). Seeds: {@code GssapiLayerFuzzTestInputs/<method>/}.
 */
class GssapiLayerFuzzTest {
  private static final byte[] KEY = new byte[32];

  @FuzzTest(maxDuration = "30s")
  void offer(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> SecurityLayer.parseOffer(input), SaslException.class);
  }

  @FuzzTest(maxDuration = "30s")
  void choice(byte[] input) {
    if (input.length == 0) {
      return;
    }
    byte[] choice = Arrays.copyOfRange(input, 1, input.length);
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> SecurityLayer.parseChoice(choice, input[0] & 0xff),
        SaslException.class);
  }

  @FuzzTest(maxDuration = "30s")
  void keyReply(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      KeyPair client = GcmKeys.generate();
      byte[] share = SecurityLayer.replyShare(input);
      GcmKeys keys = GcmKeys.derive(client.getPrivate(), share, new byte[SecurityLayer.SECRET], new byte[4],
          new byte[70], share);
      assertFalse(keys.confirms(SecurityLayer.confirmation(input)), "a forged key reply confirmed the keys");
    }, SaslException.class);
  }

  @FuzzTest(maxDuration = "30s")
  void records(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      GssLayer layer = GssLayer.aesGcm(null, 65536, 65536, KEY, KEY, null);
      layer.unwrap(input, 0, input.length);
      throw new AssertionError("a record nobody sealed was opened");
    }, SaslException.class);
  }
}
