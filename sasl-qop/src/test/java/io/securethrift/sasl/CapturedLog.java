package io.securethrift.sasl;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tests' logger (slf4j-simple, which looks System.err up on every line) writes while this is open: System.err
 * is replaced by a stream that keeps a copy and still writes to the original, and restored on {@link #close()}.
 */
final class CapturedLog implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

  private CapturedLog() {
    OutputStream tee = new OutputStream() {
      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        original.write(b, off, len);
        copy.write(b, off, len);
      }
    };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  static CapturedLog start() {
    return new CapturedLog();
  }

  /** Everything written so far. */
  String text() {
    return copy.toString(StandardCharsets.UTF_8);
  }

  /** The complete lines written so far that contain {@code fragment}. */
  List<String> lines(String fragment) {
    List<String> found = new ArrayList<>();
    String text = text();
    for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
      if (line.contains(fragment)) {
        found.add(line);
      }
    }
    return found;
  }

  /** Waits until a complete line contains {@code fragment} (servers log on their own threads) and returns it. */
  String awaitLine(String fragment, Duration timeout) {
    Await.until("a log line containing '" + fragment + "'", timeout, () -> !lines(fragment).isEmpty());
    return lines(fragment).get(0);
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
