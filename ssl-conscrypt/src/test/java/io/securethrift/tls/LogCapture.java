package io.securethrift.tls;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Captures what the test logger (slf4j-simple, which looks {@code System.err} up at every write) prints while open,
 * still passing it on to the real {@code System.err}; {@link #close()} puts the real one back.
 */
final class LogCapture implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  private LogCapture() {
    OutputStream tee = new OutputStream() {
      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        original.write(b, off, len);
        synchronized (LogCapture.this) {
          captured.write(b, off, len);
          LogCapture.this.notifyAll();
        }
      }
    };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  static LogCapture start() {
    return new LogCapture();
  }

  synchronized String text() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  /** Waits until {@code needle} has been written {@code times} times; fails with the text after {@code timeout}. */
  synchronized void await(String needle, int times, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (occurrences(text(), needle) < times) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("'" + needle + "' logged fewer than " + times + " times in " + timeout + ":\n" + text());
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  private static int occurrences(String text, String needle) {
    int count = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
      count++;
    }
    return count;
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
