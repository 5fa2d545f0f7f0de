package io.securethrift.core.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.spi.HandshakeFailure;
import org.apache.thrift.transport.TTransportException;
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
    assertEquals("a\\u200cb\\u200dc\\u2060d\\u2064e\\ufefff",
        PeerText.sanitize("a\u200cb\u200dc\u2060d\u2064e\ufefff"));
    assertEquals("tag\\U000e0041 private\\ue000 unassigned\\u0378",
        PeerText.sanitize("tag" + new String(Character.toChars(0xE0041)) + " private\ue000 unassigned\u0378"));
  }

  /**
   * The backslash is escaped too, so a peer's literal two characters {@code \n} cannot pass for an escaped line
   * break: every backslash in the result starts an escape, and the two texts stay apart.
   */
  @Test
  void aLiteralBackslashIsEscapedSoItCannotPassForAnEscape() {
    assertEquals("utf-8\\\\n2026-11-24 WARN forged", PeerText.sanitize("utf-8\\n2026-11-24 WARN forged"));
    assertEquals("\\\\u001b[2J \\\\\\\\ C:\\\\temp", PeerText.sanitize("\\u001b[2J \\\\ C:\\temp"));
    assertNotEquals(PeerText.sanitize("\n"), PeerText.sanitize("\\n"));
    assertEquals("\\\\", PeerText.sanitize("\\"));
  }

  /** Escaping is done once: escaped text given to it again gets its backslashes doubled, which callers avoid. */
  @Test
  void sanitizingEscapedTextAgainDoublesItsBackslashes() {
    String once = PeerText.sanitize("admin\u200b@REALM\r\n");
    assertEquals("admin\\u200b@REALM\\r\\n", once);
    assertEquals("admin\\\\u200b@REALM\\\\r\\\\n", PeerText.sanitize(once));
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

  /**
   * Messages escaped where they were made (a HandshakeFailure's, this library's own exceptions that quote a peer)
   * are quoted as they are; only raw messages are escaped, and a raw cause the escaped message already quotes is
   * left out.
   */
  @Test
  void describeAndMessageOfEscapeRawMessagesAndKeepEscapedOnes() {
    String peer = "x\\n\r\ny";
    Exception raw = new java.io.IOException("bad charset " + peer);
    String escaped = "handshake failed: " + PeerText.describe(raw);
    assertEquals("handshake failed: bad charset x\\\\n\\r\\ny", escaped);
    HandshakeFailure failure = new HandshakeFailure(AuthFailure.SASL_BAD, escaped, raw);
    assertEquals(escaped, PeerText.describe(failure));
    assertEquals(escaped, PeerText.messageOf(failure));
    EscapedTransportException wrapped = new EscapedTransportException(TTransportException.UNKNOWN,
        "negotiation failed: " + escaped, failure);
    assertEquals("negotiation failed: " + escaped, PeerText.describe(wrapped));
    ConfigException config = new ConfigException("securethrift.some.key", "bad value " + peer);
    assertEquals("securethrift.some.key: bad value x\\\\n\\r\\ny", PeerText.describe(config));
    assertEquals(PeerText.sanitize(raw.getMessage()), PeerText.messageOf(raw));
    assertEquals("null", PeerText.messageOf(new IllegalStateException()));
  }

  /** A long chain is cut like one long text, and never inside an escape. */
  @Test
  void describeCutsTheWholeChainWithoutSplittingAnEscape() {
    Exception e = new IllegalStateException("y".repeat(PeerText.MAX_LENGTH - 3),
        new RuntimeException("\u001b\u001b\u001b\u001b"));
    String described = PeerText.describe(e);
    // 1021 y, then ": " and the first escape make 1024 characters of text; the other three are dropped whole.
    assertEquals("y".repeat(PeerText.MAX_LENGTH - 3) + ": \\u001b...(3 more characters)", described);
  }
}
