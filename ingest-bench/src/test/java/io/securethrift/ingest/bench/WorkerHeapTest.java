package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WorkerHeapTest {
  private static final long MB = 1L << 20;

  @Test
  void theDefaultRunFitsTheProjectsMachine() {
    // 20 targets sharing 22.5 GB less the launcher's 1 GB, as on a 24 GiB machine: they once took all of it.
    long share = (22_500 - 1_024) * MB / 20;
    WorkerHeap heap = WorkerHeap.forShare(OptionalLong.of(share));
    assertEquals(352, heap.serverMb());
    long resident = heap.serverMb() + heap.clientMb() + 2L * WorkerHeap.OUTSIDE_HEAP_MB;
    assertTrue(resident * MB <= share, resident + " MB per target against a share of " + share / MB);
  }

  @Test
  void aLargeShareStopsAtTheLargestHeapAndNoEstimateGivesIt() {
    assertEquals(new WorkerHeap(WorkerHeap.MAX_SERVER_MB, WorkerHeap.CLIENT_MB),
        WorkerHeap.forShare(OptionalLong.of(64_000 * MB)));
    assertEquals(new WorkerHeap(WorkerHeap.MAX_SERVER_MB, WorkerHeap.CLIENT_MB),
        WorkerHeap.forShare(OptionalLong.empty()));
  }

  @Test
  void heapsAreWholeGrainsAndTheSmallestShareThatFitsGetsTheSmallestHeap() {
    int least = WorkerHeap.MIN_SERVER_MB + WorkerHeap.CLIENT_MB + 2 * WorkerHeap.OUTSIDE_HEAP_MB;
    assertEquals(WorkerHeap.MIN_SERVER_MB, WorkerHeap.forShare(OptionalLong.of(least * MB)).serverMb());
    assertEquals(WorkerHeap.MIN_SERVER_MB, WorkerHeap.forShare(OptionalLong.of((least + 31) * MB)).serverMb());
    assertEquals(WorkerHeap.MIN_SERVER_MB + 32, WorkerHeap.forShare(OptionalLong.of((least + 32) * MB)).serverMb());
  }

  @Test
  void tooSmallAShareIsRefusedBeforeAnyJvmStartsAndSaysWhatToDo() {
    int least = WorkerHeap.MIN_SERVER_MB + WorkerHeap.CLIENT_MB + 2 * WorkerHeap.OUTSIDE_HEAP_MB;
    ConfigException e = assertThrows(ConfigException.class,
        () -> WorkerHeap.forShare(OptionalLong.of((least - 1) * MB)));
    assertTrue(e.getMessage().contains("--forks"), e.getMessage());
    assertTrue(e.getMessage().contains(String.format("%,d MB", least - 1)), e.getMessage());
    assertTrue(e.getMessage().contains("--forks 1, fewer --modes"), e.getMessage());
    assertThrows(ConfigException.class, () -> WorkerHeap.forShare(OptionalLong.of(0)));
  }
}
