package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PeerTextTest {
  @Test
  void lineBreaksCannotForgeALogLine() {
    assertEquals("utf-8\\r\\n2026-11-24 WARN forged", PeerText.sanitize("utf-8\r\n2026-11-24 WARN forged"));
  }

  @Test
  void ansiEscapesAndOtherControlsBecomeVisible() {
    assertEquals("\\u001b[31mred\\u001b[0m \\u0000 \\u007f \\u0085 \\t", PeerText.sanitize(
        "\u001b[31mred\u001b[0m \u0000 \u007f \u0085 \t"));
  }

  @Test
  void bidiOverridesSeparatorsAndLoneSurrogatesAreEscaped() {
    assertEquals("a\\u202eb\\u2028c\\u2066d\\ud800e", PeerText.sanitize("a\u202eb\u2028c\u2066d\ud800e"));
  }

  /** Invisible characters could make one principal look like another in a log ({@code admin\u200b@REALM}). */
  @Test
  void invisibleFormatPrivateUseAndUnassignedCharactersAreEscaped() {
    assertEquals("admin\\u200b@REALM", PeerText.sanitize("admin\u200b@REALM"));
    assertEquals("a\\u200cb\\u200dc\\u2060d\\u2064e\\ufefff", PeerText.sanitize("a\u200cb\u200dc\u2060d\u2064e\ufefff"));
    assertEquals("tag\\U000e0041 private\\ue000 unassigned\\u0378",
        PeerText.sanitize("tag" + new String(Character.toChars(0xE0041)) + " private\ue000 unassigned\u0378"));
  }

  /** Escapes are plain ASCII, so text sanitized on its way through several layers comes out the same. */
  @Test
  void sanitizingTwiceChangesNothing() {
    String once = PeerText.sanitize("admin\u200b@REALM\r\n\u001b[2J" + new String(Character.toChars(0xE0041)));
    assertEquals(once, PeerText.sanitize(once));
  }

  @Test
  void ordinaryTextIncludingNonAsciiPassesUnchanged() {
    String text = "GSS initiate failed: Checksum failed for alice@EXAMPLE.COM — Müller 名前 😀";
    assertEquals(text, PeerText.sanitize(text));
  }

  @Test
  void textAtTheLimitPassesWholeAndOneMoreCharacterIsCut() {
    String atLimit = "y".repeat(PeerText.MAX_LENGTH);
    assertSame(atLimit, PeerText.sanitize(atLimit), "safe text needs no copy");
    assertEquals(atLimit + "...(1 more characters)", PeerText.sanitize(atLimit + "z"));
    // A line break at the very end of safe text still gets escaped.
    assertEquals("y".repeat(10) + "\\n", PeerText.sanitize("y".repeat(10) + "\n"));
  }

  @Test
  void longTextIsCutAndSaysHowMuchWasDropped() {
    String sanitized = PeerText.sanitize("x".repeat(10_000) + "\n");
    assertTrue(sanitized.startsWith("x".repeat(PeerText.MAX_LENGTH)));
    assertTrue(sanitized.endsWith("...(8977 more characters)"), sanitized.substring(PeerText.MAX_LENGTH));
    assertFalse(sanitized.contains("\n"));
    assertTrue(sanitized.length() < PeerText.MAX_LENGTH + 32);
  }

  @Test
  void nullIsSpelledOut() {
    assertEquals("null", PeerText.sanitize(null));
  }

  @Test
  void describeJoinsACauseChainOnceAndSanitizesIt() {
    Exception e = new IllegalStateException("handshake failed: bad charset x\r\ny",
        new java.io.IOException("bad charset x\r\ny", new RuntimeException("realm\u001b[2J")));
    assertEquals("handshake failed: bad charset x\\r\\ny: realm\\u001b[2J", PeerText.describe(e));
    assertEquals("IllegalStateException", PeerText.describe(new IllegalStateException()));
  }
}
