package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes {@link GssTokens}, which reads a GSSAPI client's first context token before the Kerberos context has
 * accepted it: the AP-REQ it finds (for the service ticket's end) is always the tail of the token, and nothing is
 * allocated beyond a copy of it. Seeds: {@code GssTokensFuzzTestInputs/apRequest/}.
 */
class GssTokensFuzzTest {
  /** 0x60, a length, the Kerberos V5 mechanism OID, the AP-REQ token identifier 01 00. */
  private static final byte[] HEADER = {0x60, 0x0e, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7,
      0x12, 0x01, 0x02, 0x02, 0x01, 0x00};

  @FuzzTest(maxDuration = "30s")
  void apRequest(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      byte[] found = GssTokens.apRequest(input);
      if (found != null) {
        assertArrayEquals(Arrays.copyOfRange(input, input.length - found.length, input.length), found,
            "the AP-REQ must be the token's tail");
      }
    });
  }

  @Test
  void theApRequestFollowsTheTokenIdentifier() {
    byte[] token = Arrays.copyOf(HEADER, HEADER.length + 3);
    token[HEADER.length] = 0x6e;
    assertArrayEquals(new byte[] {0x6e, 0, 0}, GssTokens.apRequest(token));
    byte[] wrap = token.clone();
    wrap[HEADER.length - 1] = 0x01;
    wrap[HEADER.length - 2] = 0x02;
    assertNull(GssTokens.apRequest(wrap), "a wrap token carries no AP-REQ");
    assertNull(GssTokens.apRequest(Arrays.copyOf(HEADER, 5)), "a truncated header carries none");
  }
}
