package io.securethrift.core.testservice;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tests' logger (slf4j-simple, which looks {@code System.err} up on every line) writes while this is open:
 * {@code System.err} is replaced by a stream that keeps a copy and still writes to the original, and restored on
 * {@link #close()}. Servers log on their own threads, so tests wait for lines with {@link #awaitLines}.
 */
public final class LogCapture implements AutoCloseable {
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

  public static LogCapture start() {
    return new LogCapture();
  }

  /** Everything written so far. */
  public synchronized String text() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  /** The complete lines written so far that contain {@code fragment}. */
  public synchronized List<String> lines(String fragment) {
    List<String> found = new ArrayList<>();
    String text = text();
    for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
      if (line.contains(fragment)) {
        found.add(line);
      }
    }
    return found;
  }

  /**
   * Waits until at least {@code count} complete lines contain {@code fragment} and returns them; fails with
   * everything captured after {@code timeout}.
   */
  public synchronized List<String> awaitLines(String fragment, int count, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> found = lines(fragment);
    while (found.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(count + " lines containing '" + fragment + "' not logged within " + timeout
            + ":\n" + text());
      }
      wait(Math.max(1, left / 1_000_000));
      found = lines(fragment);
    }
    return found;
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
