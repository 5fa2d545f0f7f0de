package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.Test;

/**
 * The channel binding in a client's security layer choice: it travels after the layer fields as a length byte and the
 * hash, and a length that claims more bytes than the choice holds is refused before anything is copied.
 */
class SecurityLayerBindingTest {
  private static final int OFFERED = SecurityLayer.CONFIDENTIALITY | SecurityLayer.CHANNEL_BINDING;
  private static final byte[] HASH = new byte[32];

  static {
    Arrays.fill(HASH, (byte) 0x5a);
  }

  @Test
  void aBoundChoiceCarriesItsHashAndTheAuthorizationIdAfterIt() throws SaslException {
    byte[] choice = SecurityLayer.choice(SecurityLayer.CONFIDENTIALITY, 65536, HASH, "bob");
    SecurityLayer.Choice parsed = SecurityLayer.parseChoice(choice, OFFERED);
    assertArrayEquals(HASH, parsed.binding);
    assertEquals("bob", parsed.authorizationId);
  }

  @Test
  void anUnboundChoiceHasNoBinding() throws SaslException {
    byte[] choice = SecurityLayer.choice(SecurityLayer.CONFIDENTIALITY, 65536, null, "bob");
    assertNull(SecurityLayer.parseChoice(choice, OFFERED).binding);
  }

  @Test
  void aBindingLengthBeyondTheChoiceIsRefusedNamingWhatIsLeft() {
    byte[] whole = SecurityLayer.choice(SecurityLayer.CONFIDENTIALITY, 65536, HASH, "");
    byte[] cut = Arrays.copyOf(whole, 4 + 1 + 3);
    SaslException e = assertThrows(SaslException.class, () -> SecurityLayer.parseChoice(cut, OFFERED));
    assertEquals("the client's channel binding is cut short: 4 bytes after the security layer fields",
        e.getMessage());
  }

  @Test
  void aBoundChoiceWithoutItsLengthByteIsRefused() {
    byte[] header = Arrays.copyOf(SecurityLayer.choice(SecurityLayer.CONFIDENTIALITY, 65536, HASH, ""), 4);
    SaslException e = assertThrows(SaslException.class, () -> SecurityLayer.parseChoice(header, OFFERED));
    assertTrue(e.getMessage().startsWith("the client's channel binding is cut short: 0 bytes"), e.getMessage());
  }
}
