package io.securethrift.ingest.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final RetryPolicy POLICY = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1), 0.5);

  @Test
  void backoffDoublesUpToTheCap() {
    assertEquals(Duration.ofMillis(100), POLICY.backoff(1, 0));
    assertEquals(Duration.ofMillis(200), POLICY.backoff(2, 0));
    assertEquals(Duration.ofMillis(800), POLICY.backoff(4, 0));
    assertEquals(Duration.ofSeconds(1), POLICY.backoff(5, 0));
    assertEquals(Duration.ofSeconds(1), POLICY.backoff(Integer.MAX_VALUE, 0), "no overflow however many retries");
  }

  @Test
  void jitterTakesOffAtMostItsFraction() {
    assertEquals(Duration.ofMillis(50), POLICY.backoff(1, 1.0));
    Duration d = POLICY.backoff(3, 0.999);
    assertTrue(d.compareTo(Duration.ofMillis(200)) > 0 && d.compareTo(Duration.ofMillis(400)) < 0, d.toString());
  }

  @Test
  void settingsAreValidatedWithTheirNames() {
    assertEquals("retry max attempts must be at least 1 (1 = no retry), was 0", assertThrows(
        IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ofMillis(1), Duration.ofMillis(1), 0))
        .getMessage());
    assertEquals("retry initial backoff must be positive, was PT0S", assertThrows(IllegalArgumentException.class,
        () -> new RetryPolicy(1, Duration.ZERO, Duration.ofMillis(1), 0)).getMessage());
    assertEquals("retry max backoff (PT0.001S) must be at least the initial backoff (PT0.002S)", assertThrows(
        IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ofMillis(2), Duration.ofMillis(1), 0))
        .getMessage());
    assertEquals("retry jitter must be a fraction from 0 to 1, was NaN", assertThrows(IllegalArgumentException.class,
        () -> new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), Double.NaN)).getMessage());
    assertEquals(10, RetryPolicy.DEFAULT.maxAttempts());
  }
}
