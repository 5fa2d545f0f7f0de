package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Forks take the measured rounds two at a time, so each runs as many odd rounds as even ones. */
class ForksTest {
  private static List<Integer> firstEight(int forks) {
    return IntStream.rangeClosed(1, 8).mapToObj(r -> Forks.measuring(r, forks)).toList();
  }

  @Test
  void forksTakeTheRoundsTwoAtATime() {
    assertEquals(List.of(0, 0, 0, 0, 0, 0, 0, 0), firstEight(1));
    assertEquals(List.of(0, 0, 1, 1, 0, 0, 1, 1), firstEight(2));
    assertEquals(List.of(0, 0, 1, 1, 2, 2, 0, 0), firstEight(3));
  }

  @Test
  void warmUpRoundsAndNoForksAreRefused() {
    assertEquals("round 0 of 2 forks: rounds count from 1, forks from 1",
        assertThrows(IllegalArgumentException.class, () -> Forks.measuring(0, 2)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Forks.measuring(1, 0));
  }
}
