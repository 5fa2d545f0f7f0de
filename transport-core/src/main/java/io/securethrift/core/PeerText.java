package io.securethrift.core;

/**
 * The one sanitizer for text a peer can influence (SASL reasons and errors, mechanism and principal names,
 * certificate subjects, exception messages that quote them) before it reaches a log line or a reply. Every character
 * that is not visible text is written as a visible escape ({@code \n}, {@code \u001b}, {@code \U000e0041}):
 * controls, line and paragraph separators, format characters (bidirectional overrides and isolates, zero-width
 * spaces and joiners, the byte-order mark, tag characters), private-use, unassigned and lone surrogate code points.
 * Escapes are plain ASCII, so sanitizing twice changes nothing. A peer can then neither forge a log line or an ANSI
 * sequence nor make one name look like another
 * ({@code admin\u200b@REALM}), and the text is cut to a bounded length so a peer cannot fill a log. Ordinary text,
 * including non-ASCII letters and symbols, passes unchanged.
 */
public final class PeerText {
  /** Longest text kept, in code points; enough for every message the JDK and this library write. */
  public static final int MAX_LENGTH = 1024;

  private PeerText() {}

  /** {@code text} made safe for one log line, or {@code "null"}. */
  public static String sanitize(String text) {
    if (text == null) {
      return "null";
    }
    if (isSafe(text)) {
      // Audit lines sanitize every field of every connection; most are safe already and need no copy.
      return text;
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 16);
    int kept = 0;
    int i = 0;
    while (i < text.length() && kept < MAX_LENGTH) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      kept++;
      appendSafe(out, c);
    }
    if (i < text.length()) {
      out.append("...(").append(text.codePointCount(i, text.length())).append(" more characters)");
    }
    return out.toString();
  }

  /**
   * The messages along {@code e}'s cause chain, each once, sanitized: the JDK's TLS and SASL code quote what the peer
   * sent in their exceptions. The class name when no message says anything.
   */
  public static String describe(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && s.indexOf(m) < 0) {
        s.append(s.length() == 0 ? "" : ": ").append(m);
      }
    }
    return s.length() == 0 ? e.getClass().getSimpleName() : sanitize(s.toString());
  }

  /** Short enough, and no character that would be escaped (surrogates, even paired, take the careful path). */
  private static boolean isSafe(String text) {
    if (text.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isUnsafe(c) || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static void appendSafe(StringBuilder out, int c) {
    if (c == '\n') {
      out.append("\\n");
    } else if (c == '\r') {
      out.append("\\r");
    } else if (c == '\t') {
      out.append("\\t");
    } else if (isUnsafe(c)) {
      out.append(String.format(c > Character.MAX_VALUE ? "\\U%08x" : "\\u%04x", c));
    } else {
      out.appendCodePoint(c);
    }
  }

  /**
   * Everything but visible text: controls (C0, DEL, C1), format characters, line and paragraph separators,
   * private-use and unassigned code points, and lone surrogates (which {@code codePointAt} returns as themselves).
   */
  private static boolean isUnsafe(int c) {
    switch (Character.getType(c)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.PRIVATE_USE:
      case Character.UNASSIGNED:
      case Character.SURROGATE:
        return true;
      default:
        return false;
    }
  }
}
