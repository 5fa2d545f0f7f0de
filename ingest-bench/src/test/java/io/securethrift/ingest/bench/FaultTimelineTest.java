package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A fault run's points, on a timeline whose start lies far enough back that every point is due: what decides whether
 * a point is reached is the ingest's progress and whether it still runs, and the counts of points and landed ones.
 */
class FaultTimelineTest {
  /** A start ten seconds ago: every point of a one-second run is due. */
  private static long longAgo() {
    return System.nanoTime() - Duration.ofSeconds(10).toNanos();
  }

  @Test
  void aDuePointWithProgressIsReachedAndLandsWhileTheIngestRuns() {
    AtomicLong progress = new AtomicLong(1);
    CompletableFuture<Void> ingest = new CompletableFuture<>();
    FaultTimeline timeline = new FaultTimeline(longAgo(), Duration.ofSeconds(1), progress::get, ingest);
    timeline.at(0.3, "kill");
    progress.set(2);
    timeline.atElapsed(Duration.ofMillis(600), "restart");
    assertEquals(2, timeline.points());
    assertEquals(2, timeline.landed());
  }

  @Test
  void withoutProgressSinceTheLastPointOnlyTheIngestsEndReleasesTheNext() {
    AtomicLong progress = new AtomicLong(5);
    CompletableFuture<Void> ingest = new CompletableFuture<>();
    FaultTimeline timeline = new FaultTimeline(longAgo(), Duration.ofSeconds(1), progress::get, ingest);
    timeline.at(0.1, "first");
    // No progress since: the next point would wait, but the ingest has ended, so it is reached and does not land.
    ingest.complete(null);
    timeline.at(0.2, "second");
    assertEquals(2, timeline.points());
    assertEquals(1, timeline.landed(), "the second came after the ingest ended");
  }

  @Test
  void aFirstPointNeedsSomeProgressFromZero() {
    CompletableFuture<Void> ingest = CompletableFuture.completedFuture(null);
    FaultTimeline timeline = new FaultTimeline(longAgo(), Duration.ofSeconds(1), () -> 0, ingest);
    timeline.at(0.5, "kill");
    assertEquals(1, timeline.points());
    assertEquals(0, timeline.landed(), "reached only because the ingest had ended, with nothing written");
  }

  @Test
  void waitsEndAtOnceWhenTheConditionHoldsOrTheIngestEnded() {
    AtomicLong checks = new AtomicLong();
    FaultTimeline running = new FaultTimeline(longAgo(), Duration.ofSeconds(1), () -> 1,
        new CompletableFuture<>());
    running.until("a condition", () -> checks.incrementAndGet() >= 1);
    assertEquals(1, checks.get(), "checked once, true at once");
    running.after(Duration.ZERO);
    FaultTimeline ended = new FaultTimeline(longAgo(), Duration.ofSeconds(1), () -> 1,
        CompletableFuture.completedFuture(null));
    ended.until("never", () -> false);
    assertEquals(0, ended.points(), "waiting is not a point");
  }
}
