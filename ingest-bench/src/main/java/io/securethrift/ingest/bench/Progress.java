package io.securethrift.ingest.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Shows how far a run is, one line per step on standard error so the results on standard output stay clean: each
 * iteration as it ends, and after each round what the widest interval is, since an adaptive run's length is not
 * known in advance.
 */
final class Progress {
  private final PrintStream out = System.err;
  private final long start = System.nanoTime();

  void step(String what) {
    out.println(String.format(Locale.ROOT, "[%4.0f s] %s", (System.nanoTime() - start) / 1e9, what));
    out.flush();
  }
}
