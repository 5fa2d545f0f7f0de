package io.securethrift.harness;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A run's progress, one line per step with the seconds since the log was made, so a slow step shows itself and an
 * adaptive run, whose length is not known in advance, shows how far it is. Benchmarks write it to standard error,
 * keeping their results on standard output clean.
 */
public final class ProgressLog {
  private final PrintStream out;
  private final long started = System.nanoTime();

  public ProgressLog(PrintStream out) {
    this.out = out;
  }

  /** The seconds since this log was made. */
  public double seconds() {
    return (System.nanoTime() - started) / 1e9;
  }

  /** Writes {@code what} as one line, {@code [  12 s] what}. */
  public void step(String what) {
    out.println(String.format(Locale.ROOT, "[%4.0f s] %s", seconds(), what));
    out.flush();
  }
}
