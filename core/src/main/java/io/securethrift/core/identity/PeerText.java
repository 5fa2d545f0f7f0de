package io.securethrift.core.identity;

import io.securethrift.core.ConfigException;
import io.securethrift.core.internal.EscapedMessage;
import io.securethrift.core.spi.HandshakeFailure;

/**
 * The one sanitizer for text a peer can influence (SASL reasons and errors, mechanism and principal names,
 * certificate subjects, exception messages that quote them) before it reaches a log line, an audit line, an exception
 * message or a reply. Every character that is not visible text is written as a visible escape ({@code \n},
 * {@code \u001b}, {@code \U000e0041}): controls, line and paragraph separators, format characters (bidirectional
 * overrides and isolates, zero-width spaces and joiners, the byte-order mark, tag characters), private-use,
 * unassigned and lone surrogate code points. The backslash itself is written {@code \\}, so a peer's two characters
 * {@code \n} stay {@code \\n} and cannot pass for an escaped line break: every backslash in the result starts an
 * escape. A peer can then neither forge a log line or an ANSI sequence nor make one name look like another
 * ({@code admin\u200b@REALM}), and the text is cut to a bounded length so a peer cannot fill a log. Ordinary text,
 * including non-ASCII letters and symbols, passes unchanged.
 *
 * <p>Text is escaped exactly once, where it enters a log line, an exception message, an audit line or a reply:
 * escaping escaped text doubles its backslashes. Exception messages this library builds from escaped text are
 * escaped already ({@link HandshakeFailure}, {@link ConfigException}, and its other exceptions that quote a peer);
 * {@link #describe} and {@link #messageOf} quote those as they are and escape every other message.
 */
public final class PeerText {
  /** Longest text kept, in code points; enough for every message the JDK and this library write. */
  public static final int MAX_LENGTH = 1024;

  /** Longest cause chain {@link #describe} reads; real ones are two or three deep, a cycle would never end. */
  private static final int MAX_CHAIN = 16;

  private PeerText() {}

  /** Raw {@code text} made safe for one log line, or {@code "null"}. Never give it text it has escaped already. */
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
   * The messages along {@code e}'s cause chain, each once, escaped once: the JDK's TLS and SASL code quote what the
   * peer sent in their exceptions. A message that is escaped already (see the class comment) is kept as it is. Cut
   * like {@link #sanitize}, at {@link #MAX_LENGTH} characters of the messages' text. The class name when no message
   * says anything.
   */
  public static String describe(Throwable e) {
    StringBuilder s = new StringBuilder();
    int depth = 0;
    for (Throwable t = e; t != null && depth < MAX_CHAIN; t = t.getCause(), depth++) {
      if (t.getMessage() != null) {
        String m = messageOf(t);
        if (s.indexOf(m) < 0) {
          s.append(s.length() == 0 ? "" : ": ").append(m);
        }
      }
    }
    return s.length() == 0 ? e.getClass().getSimpleName() : cut(s.toString());
  }

  /**
   * {@code t}'s own message, escaped once: as it is when it is escaped already (see the class comment), else through
   * {@link #sanitize}; {@code "null"} when it has none. An escaped message holds no character {@link #sanitize} would
   * escape but the backslashes of its escapes; should one hold a raw control anyway (a layer that broke
   * {@link HandshakeFailure}'s contract), that character is escaped still, its backslashes left alone.
   */
  public static String messageOf(Throwable t) {
    String m = t.getMessage();
    return m != null && isEscaped(t) ? escapeStray(m) : sanitize(m);
  }

  /** {@code escaped} with any character other than the backslash that {@link #sanitize} would escape escaped. */
  private static String escapeStray(String escaped) {
    boolean stray = false;
    for (int i = 0; i < escaped.length() && !stray; i++) {
      char c = escaped.charAt(i);
      stray = c != '\\' && (isUnsafe(c) || Character.isSurrogate(c));
    }
    if (!stray) {
      return escaped;
    }
    StringBuilder out = new StringBuilder(escaped.length() + 16);
    for (int i = 0; i < escaped.length(); ) {
      int c = escaped.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\\') {
        out.append('\\');
      } else {
        appendSafe(out, c);
      }
    }
    return out.toString();
  }

  private static boolean isEscaped(Throwable t) {
    return t instanceof EscapedMessage || t instanceof HandshakeFailure || t instanceof ConfigException;
  }

  /**
   * Escaped {@code text} cut after {@link #MAX_LENGTH} of the characters it stands for, an escape counting as the one
   * character it replaces and never split.
   */
  private static String cut(String text) {
    if (text.length() <= MAX_LENGTH) {
      return text;
    }
    int kept = 0;
    int i = 0;
    while (i < text.length() && kept < MAX_LENGTH) {
      i += unit(text, i);
      kept++;
    }
    if (i >= text.length()) {
      return text;
    }
    int left = 0;
    for (int j = i; j < text.length(); j += unit(text, j)) {
      left++;
    }
    return text.substring(0, i) + "...(" + left + " more characters)";
  }

  /** How many chars at {@code i} stand for one character: an escape, or one code point. */
  private static int unit(String text, int i) {
    char c = text.charAt(i);
    if (c != '\\' || i + 1 >= text.length()) {
      return Character.charCount(text.codePointAt(i));
    }
    char kind = text.charAt(i + 1);
    int length = kind == 'u' ? 6 : kind == 'U' ? 10 : 2;
    return Math.min(length, text.length() - i);
  }

  /** Short enough, and no character that would be escaped (surrogates, even paired, take the careful path). */
  private static boolean isSafe(String text) {
    if (text.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' || isUnsafe(c) || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static void appendSafe(StringBuilder out, int c) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '\n') {
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
