package io.securethrift.ingest.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The verifier's row lists: growth past the first array, sorting only the used part, and search within it. */
class LongListTest {
  @Test
  void growsPastItsFirstArrayKeepingEveryElement() {
    LongList list = new LongList();
    for (long i = 0; i < 5000; i++) {
      list.add(i * 3);
    }
    assertEquals(5000, list.size());
    for (int i = 0; i < 5000; i++) {
      assertEquals(i * 3L, list.get(i));
    }
  }

  @Test
  void sortAndSearchSeeOnlyTheElementsAdded() {
    LongList list = new LongList();
    SplittableRandom random = new SplittableRandom(3);
    long[] added = new long[3000];
    for (int i = 0; i < added.length; i++) {
      added[i] = random.nextLong(1, Long.MAX_VALUE);
      list.add(added[i]);
    }
    list.sort();
    for (int i = 1; i < list.size(); i++) {
      assertTrue(list.get(i - 1) <= list.get(i), "sorted at " + i);
    }
    for (long a : added) {
      assertEquals(a, list.get(list.search(a)));
    }
    // The unused tail of the array is zeros: a search for 0 must not find one of them.
    assertTrue(list.search(0) < 0);
    assertTrue(list.search(Long.MAX_VALUE) < 0);
  }

  @Test
  void setReplacesAnElementButOnlyBelowTheSize() {
    LongList list = new LongList();
    list.add(1);
    list.add(2);
    list.set(1, 7);
    assertEquals(7, list.get(1));
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> list.set(2, 9));
    assertEquals("2 is not below the size 2", e.getMessage());
  }

  @Test
  void anEmptyListFindsNothing() {
    LongList list = new LongList();
    list.sort();
    assertEquals(0, list.size());
    assertEquals(-1, list.search(5));
  }
}
