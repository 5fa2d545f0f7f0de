package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BatchWriterTest {

  private static final Duration NEVER = Duration.ofHours(1);
  private static final long WAIT_SECONDS = 30;

  @Test
  void flushReturnsOnceEverythingAddedBeforeHasBeenSent() throws IOException {
    List<Entry> sent = Collections.synchronizedList(new ArrayList<>());
    List<Entry> added = new ArrayList<>();
    try (BatchWriter writer = new BatchWriter(sent::addAll, 64 * 1024, NEVER, 3)) {
      for (int i = 0; i < 10_000; i++) {
        Entry entry = entry(i);
        added.add(entry);
        writer.add(entry);
      }
      writer.flush();
      assertEquals(identities(added), identities(sent));
      assertEquals(added.size(), sent.size());
    }
  }

  @Test
  void cutsABatchWhenHalfTheMemoryPerThreadIsBuffered() throws Exception {
    BlockingQueue<List<Entry>> batches = new LinkedBlockingQueue<>();
    long entrySize = entry(0).estimatedBytes();
    // One thread: a batch is cut at half the memory, i.e. after 10 entries.
    try (BatchWriter writer = new BatchWriter(batches::add, 20 * entrySize, NEVER, 1)) {
      for (int i = 0; i < 10; i++) {
        writer.add(entry(i));
      }
      List<Entry> batch = batches.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(10, batch.size());
      assertTrue(batches.isEmpty());
    }
  }

  @Test
  void cutsABatchWhenTheLatencyExpires() throws Exception {
    BlockingQueue<List<Entry>> batches = new LinkedBlockingQueue<>();
    try (BatchWriter writer = new BatchWriter(batches::add, 1 << 30, Duration.ofMillis(20), 2)) {
      Entry first = entry(1);
      writer.add(first);
      List<Entry> batch = batches.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(List.of(first), batch);

      Entry second = entry(2);
      writer.add(second);
      assertEquals(List.of(second), batches.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void neverHoldsMoreThanTheMemoryLimit() throws Exception {
    long entrySize = entry(0).estimatedBytes();
    int limitEntries = 8;
    AtomicLong added = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    AtomicLong worstOutstanding = new AtomicLong();
    BatchSender sender = batch -> {
      worstOutstanding.accumulateAndGet(added.get() - completed.get(), Math::max);
      completed.addAndGet(batch.size());
    };
    try (BatchWriter writer = new BatchWriter(sender, limitEntries * entrySize, NEVER, 2)) {
      for (int i = 0; i < 20_000; i++) {
        writer.add(entry(i));
        added.incrementAndGet();
      }
      writer.flush();
    }
    assertEquals(20_000, completed.get());
    assertTrue(worstOutstanding.get() <= limitEntries, "outstanding " + worstOutstanding.get());
  }

  @Test
  void senderFailureSurfacesOnFlushAddAndClose() throws IOException {
    IOException boom = new IOException("tablet server said no");
    BatchWriter writer = new BatchWriter(batch -> {
      throw boom;
    }, 1 << 20, NEVER, 2);
    writer.add(entry(1));
    writer.add(entry(2));

    IOException onFlush = assertThrows(IOException.class, writer::flush);
    assertSame(boom, onFlush.getCause());
    assertTrue(onFlush.getMessage().contains("rejected 1 batch(es) with 2 entries"), onFlush.getMessage());
    assertTrue(onFlush.getMessage().contains("tablet server said no"), onFlush.getMessage());
    assertSame(boom, assertThrows(IOException.class, () -> writer.add(entry(3))).getCause());
    assertSame(boom, assertThrows(IOException.class, writer::close).getCause());
  }

  @Test
  void senderFailureSurfacesOnALaterAdd() {
    RuntimeException boom = new IllegalStateException("connection reset");
    BatchWriter writer = new BatchWriter(batch -> {
      throw boom;
    }, 10 * entry(0).estimatedBytes(), NEVER, 1);

    IOException onAdd = assertThrows(IOException.class, () -> {
      for (int i = 0; ; i++) {
        writer.add(entry(i));
      }
    });
    assertSame(boom, onAdd.getCause());
    assertThrows(IOException.class, writer::close);
  }

  @Test
  void closeSendsWhatIsBufferedAndStopsItsThreads() throws Exception {
    Set<Thread> before = writerThreads();
    List<Entry> sent = Collections.synchronizedList(new ArrayList<>());
    BatchWriter writer = new BatchWriter(sent::addAll, 1 << 30, NEVER, 3);
    for (int i = 0; i < 5; i++) {
      writer.add(entry(i));
    }
    writer.flush();
    writer.add(entry(5));
    Set<Thread> started = writerThreads();
    started.removeAll(before);
    assertFalse(started.isEmpty());

    writer.close();
    writer.close();

    assertEquals(6, sent.size());
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      assertFalse(thread.isAlive(), thread.getName());
    }
    assertThrows(IllegalStateException.class, () -> writer.add(entry(6)));
    assertThrows(IllegalStateException.class, writer::flush);
  }

  @Test
  void rejectsBadConfiguration() {
    BatchSender sender = batch -> { };
    assertThrows(IllegalArgumentException.class, () -> new BatchWriter(sender, 0, NEVER, 1));
    assertThrows(IllegalArgumentException.class, () -> new BatchWriter(sender, 1, Duration.ZERO, 1));
    assertThrows(IllegalArgumentException.class, () -> new BatchWriter(sender, 1, NEVER, 0));
  }

  private static Set<Thread> writerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("batch-writer-"))
        .collect(Collectors.toSet());
  }

  private static Set<Entry> identities(List<Entry> entries) {
    Set<Entry> set = Collections.newSetFromMap(new IdentityHashMap<>());
    synchronized (entries) {
      set.addAll(entries);
    }
    return set;
  }

  private static Entry entry(long row) {
    return EntryFormat.encode("01234567-89ab-4def-8123-456789abcdef".getBytes(US_ASCII), row,
        EntryFormat.formatRow(row), EntryFormat.formatColumn(1), EntryFormat.formatColumn(2), new byte[0],
        EntryFormat.NO_PREVIOUS_ROW);
  }
}
