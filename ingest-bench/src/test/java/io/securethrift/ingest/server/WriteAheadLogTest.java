package io.securethrift.ingest.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.workload.Entry;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay after a kill: whole batches come back, a batch cut short is dropped and the log continues after it. */
class WriteAheadLogTest {
  @TempDir
  Path dir;

  private static Entry entry(String row) {
    byte[] r = row.getBytes(StandardCharsets.US_ASCII);
    return new Entry(r, new byte[] {'f'}, new byte[] {'q'}, new byte[0], new byte[] {'v'});
  }

  private static List<List<Entry>> replay(Path file) throws Exception {
    List<List<Entry>> batches = new ArrayList<>();
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      log.replay(batches::add);
    }
    return batches;
  }

  @Test
  void wholeBatchesReplayAndATornTailIsCutOff() throws Exception {
    Path file = dir.resolve("wal");
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      log.append(List.of(entry("a"), entry("b")));
      log.append(List.of(entry("c")));
      // No sync: written through to the OS is what survives a killed process.
    }
    long whole = Files.size(file);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
      // A third batch that declares 2 entries but was cut off inside its first key.
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {0, 0, 0, 2, 0, 0, 0, 9, 'x'}));
    }
    List<List<Entry>> batches = replay(file);
    assertEquals(2, batches.size());
    assertArrayEquals("c".getBytes(StandardCharsets.US_ASCII), batches.get(1).get(0).row());
    assertEquals(whole, Files.size(file), "the torn batch is truncated away");

    try (WriteAheadLog log = new WriteAheadLog(file)) {
      log.replay(b -> { });
      log.append(List.of(entry("d")));
    }
    assertEquals(3, replay(file).size(), "appends after replay continue the log");
  }

  @Test
  void hostileLengthsEndReplayWithoutAllocatingThem() throws Exception {
    Path file = dir.resolve("hostile");
    Files.write(file, new byte[] {0, 0, 0, 1, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    assertEquals(0, replay(file).size());
    assertEquals(0, Files.size(file));
  }

  /** The log's bytes of {@code batches}, as a fresh log writes them. */
  private byte[] written(List<List<Entry>> batches) throws Exception {
    Path file = Files.createTempFile(dir, "expected", ".wal");
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      for (List<Entry> b : batches) {
        log.append(b);
      }
    }
    return Files.readAllBytes(file);
  }

  @Test
  void theRecordLayoutIsACountThenEveryPartLengthPrefixed() throws Exception {
    Entry e = new Entry(new byte[] {'r'}, new byte[] {'f', 'g'}, new byte[0], new byte[] {'V'}, new byte[] {1, 2});
    assertArrayEquals(new byte[] {0, 0, 0, 1, 0, 0, 0, 1, 'r', 0, 0, 0, 2, 'f', 'g', 0, 0, 0, 0, 0, 0, 0, 1, 'V',
        0, 0, 0, 2, 1, 2}, written(List.of(List.of(e))));
  }

  @Test
  void aLogCutAtAnyByteReplaysExactlyTheBatchesWrittenWholeBeforeIt() throws Exception {
    List<List<Entry>> batches = List.of(List.of(entry("a"), entry("bb")), List.of(), List.of(entry("ccc")),
        List.of(entry("d"), entry("e"), entry("f")));
    byte[] full = written(batches);
    // Where each batch ends in the file.
    List<Integer> ends = new ArrayList<>();
    int at = 0;
    for (List<Entry> b : batches) {
      at += 4;
      for (Entry e : b) {
        at += 5 * 4 + e.keyValueBytes();
      }
      ends.add(at);
    }
    assertEquals(full.length, at);
    for (int cut = 0; cut <= full.length; cut++) {
      Path file = dir.resolve("cut-" + cut);
      Files.write(file, java.util.Arrays.copyOf(full, cut));
      int whole = 0;
      while (whole < ends.size() && ends.get(whole) <= cut) {
        whole++;
      }
      List<List<Entry>> replayed = replay(file);
      assertEquals(batches.subList(0, whole), replayed, "cut at byte " + cut);
      assertEquals(whole == 0 ? 0 : ends.get(whole - 1), Files.size(file), "truncated to the last whole batch");
    }
  }

  @Test
  void replayCountsTheEntriesAndAppendsAfterItContinueTheLog() throws Exception {
    Path file = dir.resolve("count");
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      log.append(List.of(entry("a"), entry("b"), entry("c")));
      log.append(List.of(entry("d")));
      log.sync();
    }
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      assertEquals(4, log.replay(b -> { }));
      log.append(List.of(entry("e")));
    }
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      assertEquals(5, log.replay(b -> { }));
    }
  }

  @Test
  void truncateEmptiesTheLogAndLaterBatchesStartItAgain() throws Exception {
    Path file = dir.resolve("truncate");
    try (WriteAheadLog log = new WriteAheadLog(file)) {
      log.append(List.of(entry("a")));
      log.truncate();
      assertEquals(0, Files.size(file));
      log.append(List.of(entry("b")));
    }
    List<List<Entry>> batches = replay(file);
    assertEquals(List.of(List.of(entry("b"))), batches);
  }

  @Test
  void aNegativeCountOrLengthEndsReplayAtTheLastWholeBatch() throws Exception {
    byte[] good = written(List.of(List.of(entry("a"))));
    for (byte[] tail : new byte[][] {
        {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
        {0, 0, 0, 1, (byte) 0x80, 0, 0, 0, 'x'},
        {0, 0, 0, 1, 0, 0, 0, 1, 'r', 0, 0, 0, 1, 'f', 0, 0, 0, 1, 'q', 0, 0, 0, 0, 0, 0, 0, 9, 'v'}}) {
      Path file = dir.resolve("damaged-" + tail.length);
      byte[] bytes = java.util.Arrays.copyOf(good, good.length + tail.length);
      System.arraycopy(tail, 0, bytes, good.length, tail.length);
      Files.write(file, bytes);
      assertEquals(List.of(List.of(entry("a"))), replay(file), "tail of " + tail.length + " bytes");
      assertEquals(good.length, Files.size(file));
    }
  }

  @Test
  void anEmptyOrMissingLogReplaysNothingAndIsCreated() throws Exception {
    Path file = dir.resolve("new.wal");
    assertEquals(List.of(), replay(file));
    assertTrue(Files.exists(file));
    assertEquals(0, Files.size(file));
  }
}
