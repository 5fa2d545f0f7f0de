package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import javax.security.auth.Subject;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.Test;

/**
 * {@link ServiceTicketEnd} reads only AP-REQs the JDK's acceptor has accepted, but its decoding must still fail with
 * the reason, and allocate nothing from a length it is told, when what it is handed is not one: the server then
 * refuses the client rather than keep its connection for any age. Also a fuzz target (Jazzer) over any input.
 */
class ServiceTicketEndTest {
  @FuzzTest(maxDuration = "30s")
  void anyInputFailsOnlyWithTheReasonAndWithinItsSize(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      try {
        ServiceTicketEnd.of(input, new Subject());
      } catch (SaslException e) {
        // With no keytab in the subject, nothing is accepted; decoding must fail or find no key, saying so.
        assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: ")
            || e.getMessage().startsWith("the acceptor's keytab holds no key"), e.getMessage());
      }
    });
  }

  @Test
  void garbageIsRefusedWithTheReason() {
    SaslException e = assertThrows(SaslException.class,
        () -> ServiceTicketEnd.of(new byte[] {0x6e, 0x03, 0x01, 0x02, 0x03}, new Subject()));
    assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
  }

  @Test
  void aLengthBeyondTheBytesIsRefusedWithoutAllocatingIt() {
    // An APPLICATION 14 (AP-REQ) claiming 2 GiB, then three bytes.
    byte[] claim = {0x6e, (byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x30, 0x01, 0x00};
    ParserOracle.expectOnlyWithinAllocation(claim.length, () -> {
      SaslException e = assertThrows(SaslException.class, () -> ServiceTicketEnd.of(claim, new Subject()));
      assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
    });
  }

  @Test
  void anEmptyRequestIsRefusedWithTheReason() {
    SaslException e = assertThrows(SaslException.class, () -> ServiceTicketEnd.of(new byte[0], new Subject()));
    assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
  }
}
