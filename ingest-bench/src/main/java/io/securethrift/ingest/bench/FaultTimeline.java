package io.securethrift.ingest.bench;

import io.securethrift.core.testing.Await;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Points in a fault run's time, reached only while the ingest still runs and once it made progress since the last
 * one, so that every fault hits a working system rather than one still recovering from the previous fault.
 */
public final class FaultTimeline {
  private static final Logger LOG = LoggerFactory.getLogger(FaultTimeline.class);
  /**
   * How long one point may wait beyond three run times: a safety net only. Each backend's client gives up well before
   * it when the server does not come back (the embedded client after its retries, about a minute; Accumulo's batch
   * writer after its timeout), which ends the ingest and with it every wait.
   */
  private static final Duration SAFETY_NET = Duration.ofMinutes(5);

  private final long start;
  private final Duration runTime;
  private final LongSupplier progress;
  private final Future<?> running;
  private final Duration limit;
  private long progressAtLast;
  private int points;
  private int landed;

  /**
   * @param start when the ingest started, as {@link System#nanoTime()}
   * @param runTime how long the ingest writes; fractions are of this
   * @param progress grows while the ingest gets on (bytes forwarded, entries acknowledged)
   * @param running the ingest
   */
  FaultTimeline(long start, Duration runTime, LongSupplier progress, Future<?> running) {
    this.start = start;
    this.runTime = runTime;
    this.progress = progress;
    this.running = running;
    this.limit = runTime.multipliedBy(3).plus(SAFETY_NET);
  }

  /** Waits for {@code fraction} of the run time and for progress since the previous point. */
  public void at(double fraction, String what) {
    atElapsed(Duration.ofNanos((long) (runTime.toNanos() * fraction)), what);
  }

  /** Waits until {@code elapsed} into the run and for progress since the previous point. */
  public void atElapsed(Duration elapsed, String what) {
    long due = start + elapsed.toNanos();
    long before = progressAtLast;
    until(what + " at " + elapsed.toMillis() + " ms into the run",
        () -> System.nanoTime() - due >= 0 && progress.getAsLong() > before);
    progressAtLast = progress.getAsLong();
    points++;
    boolean lands = !running.isDone();
    if (lands) {
      landed++;
    }
    LOG.info("{} at {} ms into the run{}", what, (System.nanoTime() - start) / 1_000_000,
        lands ? "" : ", after the ingest ended");
  }

  /** Waits {@code pause} (a reload interval) while the run goes on. */
  public void after(Duration pause) {
    long due = System.nanoTime() + pause.toNanos();
    until("a pause of " + pause, () -> System.nanoTime() - due >= 0);
  }

  /** Waits for {@code condition}, or for the ingest to end (it failed: the outcome says why). */
  public void until(String what, BooleanSupplier condition) {
    Await.until(what, limit, () -> running.isDone() || condition.getAsBoolean());
  }

  /** The points of the run's fault so far. */
  int points() {
    return points;
  }

  /** How many of them were reached while the ingest still ran. */
  int landed() {
    return landed;
  }
}
