package io.securethrift.ingest.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
