package io.securethrift.ingest.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How the ingest client retries a call whose connection failed: up to {@code maxAttempts} tries in all, waiting
 * between them an exponentially growing backoff ({@code initialBackoff}, doubled per retry, capped at
 * {@code maxBackoff}) of which a random fraction up to {@code jitter} is taken off, so clients cut off together do not
 * come back together.
 *
 * @param maxAttempts tries per call, the first included; 1 means no retry
 * @param initialBackoff wait before the first retry, before jitter
 * @param maxBackoff the longest wait between two tries, before jitter
 * @param jitter the largest fraction of a wait taken off at random, from 0 (none) to 1
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double jitter) {

  /**
   * Ten tries from 100 ms up to 10 s apart: about a minute of retrying in all, enough for a server restart, a KDC
   * restart or a network blip, short enough that a server that is really gone fails the ingest within minutes.
   */
  public static final RetryPolicy DEFAULT = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofSeconds(10), 0.5);

  /** One try: a failed call fails the ingest at once. */
  public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 0);

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("retry max attempts must be at least 1 (1 = no retry), was " + maxAttempts);
    }
    if (initialBackoff.isNegative() || initialBackoff.isZero()) {
      throw new IllegalArgumentException("retry initial backoff must be positive, was " + initialBackoff);
    }
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("retry max backoff (" + maxBackoff + ") must be at least the initial backoff ("
          + initialBackoff + ")");
    }
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException("retry jitter must be a fraction from 0 to 1, was " + jitter);
    }
  }

  /**
   * The wait before retry number {@code retry} (1 for the first), given {@code random} drawn uniformly from [0, 1).
   */
  public Duration backoff(int retry, double random) {
    long initial = initialBackoff.toNanos();
    long cap = maxBackoff.toNanos();
    // Doubling stops at the cap, so the shift never overflows.
    long base = initial;
    for (int i = 1; i < retry && base < cap; i++) {
      base = Math.min(cap, base * 2);
    }
    base = Math.min(cap, base);
    return Duration.ofNanos(base - (long) (base * jitter * random));
  }
}
