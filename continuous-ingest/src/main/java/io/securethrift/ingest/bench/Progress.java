package io.securethrift.ingest.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Shows how far a run is: redrawn in place on a terminal, one line per step otherwise (CI logs), on standard error
 * so the results on standard output stay clean.
 */
final class ProgressBar {
  private static final int WIDTH = 30;

  private final PrintStream out = System.err;
  private final boolean terminal = System.console() != null;
  private final int total;
  private final long start = System.nanoTime();
  private int done;

  ProgressBar(int total) {
    this.total = total;
  }

  void step(String what) {
    done++;
    int filled = done * WIDTH / total;
    String line = String.format(Locale.ROOT, "[%s%s] %d/%d %s (%.0f s)", "#".repeat(filled),
        ".".repeat(WIDTH - filled), done, total, what, (System.nanoTime() - start) / 1e9);
    if (terminal) {
      out.print("\r" + line + " ".repeat(10) + (done == total ? "\n" : ""));
    } else {
      out.println(line);
    }
    out.flush();
  }
}
