package io.securethrift.core.testservice;

import io.securethrift.core.audit.HandshakeAudit;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Keeps the servers' audit lines out of the tests' output while open, for tests that time a server under a flood of
 * refused connections: each refusal is an audit line, and thousands a second through the test runner's pipe cost the
 * machine more than the refusals themselves, so what such a test measured would be the pipe. The tests' logger
 * (slf4j-simple) looks {@code System.err} up for every line and writes the line with one {@code println}, so
 * {@code System.err} is replaced by a stream that drops the audit logger's lines and passes everything else on; the
 * original is restored on {@link #close()}. The servers still count every refusal in their counters.
 */
public final class QuietAuditLog implements AutoCloseable {
  /** What slf4j-simple writes between the level and the message of an audit line. */
  private static final String AUDIT_LOGGER = " " + HandshakeAudit.LOGGER_NAME + " - ";

  private final PrintStream original = System.err;

  private QuietAuditLog() {
    System.setErr(new PrintStream(original, true, StandardCharsets.UTF_8) {
      @Override
      public void println(String line) {
        if (line == null || !line.contains(AUDIT_LOGGER)) {
          super.println(line);
        }
      }
    });
  }

  public static QuietAuditLog start() {
    return new QuietAuditLog();
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
