package io.securethrift.ingest.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.KeyValues;
import io.securethrift.ingest.thrift.IngestFailure;
import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.thrift.ScanPage;
import io.securethrift.ingest.workload.ContinuousIngestGenerator;
import io.securethrift.ingest.workload.Entry;
import io.securethrift.ingest.workload.EntrySink;
import io.securethrift.ingest.workload.VerifyResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest service's handler in this process, on a real table and write-ahead log: batches in, pages out in key
 * order, a replay after a restart that verifies as the original did, and a reset that empties table and log.
 */
class IngestHandlerTest {
  @TempDir
  Path dir;

  private static KeyValue kv(int row, String value) {
    return KeyValues.toKeyValue(new Entry(String.format("%016x", row).getBytes(US_ASCII), "cf".getBytes(US_ASCII),
        "cq".getBytes(US_ASCII), new byte[0], value.getBytes(US_ASCII)));
  }

  private static List<KeyValue> batch(int from, int to) {
    List<KeyValue> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(kv(i, "v" + i));
    }
    return batch;
  }

  /** The continuous-ingest workload, as the client would send it, in batches of one flush each. */
  private static List<List<KeyValue>> workload(int entries) throws Exception {
    List<List<KeyValue>> batches = new ArrayList<>();
    List<KeyValue> current = new ArrayList<>();
    ContinuousIngestGenerator.builder().seed(5).flushInterval(100).build().generate(entries, new EntrySink() {
      @Override
      public void add(Entry entry) {
        current.add(KeyValues.toKeyValue(entry));
      }

      @Override
      public void flush() {
        batches.add(new ArrayList<>(current));
        current.clear();
      }
    });
    return batches;
  }

  @Test
  void scansPageThroughTheTableInKeyOrder() throws Exception {
    IngestHandler handler = new IngestHandler(null);
    assertEquals(3, handler.applyBatch(batch(7, 10)));
    assertEquals(7, handler.applyBatch(batch(0, 7)));

    ScanPage first = handler.scan(null, 4);
    assertEquals(4, first.getEntriesSize());
    assertTrue(first.isMore(), "a full page may have more after it");
    assertEquals(kv(0, "v0"), first.getEntries().get(0));
    ScanPage second = handler.scan(first.getEntries().get(3), 4);
    assertEquals(kv(4, "v4"), second.getEntries().get(0));
    ScanPage last = handler.scan(second.getEntries().get(3), 4);
    assertEquals(List.of(kv(8, "v8"), kv(9, "v9")), last.getEntries());
    assertFalse(last.isMore());
    assertEquals(0, handler.scan(kv(9, ""), 4).getEntriesSize(), "nothing after the last key");
    assertEquals(kv(0, "v0"), handler.scan(new KeyValue(), 1).getEntries().get(0),
        "a key without a row starts from the first entry");
    assertEquals(10, handler.stats().getEntries());
  }

  @Test
  void aPageIsCappedWhateverTheClientAsksAndABadSizeIsRefused() throws Exception {
    IngestHandler handler = new IngestHandler(null);
    handler.applyBatch(batch(0, IngestHandler.MAX_PAGE + 5));
    ScanPage page = handler.scan(null, Integer.MAX_VALUE);
    assertEquals(IngestHandler.MAX_PAGE, page.getEntriesSize());
    assertTrue(page.isMore());
    assertEquals(5, handler.scan(page.getEntries().get(IngestHandler.MAX_PAGE - 1), Integer.MAX_VALUE)
        .getEntriesSize());
    IngestFailure e = assertThrows(IngestFailure.class, () -> handler.scan(null, 0));
    assertEquals("maxEntries must be at least 1, was 0", e.getMessage());
  }

  @Test
  void aRestartedServerReplaysItsLogAndVerifiesAsBefore() throws Exception {
    Path wal = dir.resolve("ingest.wal");
    VerifyResult before;
    long received;
    try (WriteAheadLog log = new WriteAheadLog(wal)) {
      IngestHandler handler = new IngestHandler(log);
      handler.replay();
      for (List<KeyValue> b : workload(1000)) {
        handler.applyBatch(b);
        handler.flush();
      }
      before = handler.verify();
      received = handler.received();
    }
    assertTrue(before.passed(), before.toString());
    assertEquals(1000, received);
    try (WriteAheadLog log = new WriteAheadLog(wal)) {
      IngestHandler restarted = new IngestHandler(log);
      assertEquals(new VerifyResult(0, 0, 0, 0, List.of()), restarted.verify(), "empty until replayed");
      restarted.replay();
      assertEquals(before, restarted.verify());
      assertEquals(received, restarted.received());
    }
  }

  @Test
  void aLostBatchShowsAsUndefinedRows() throws Exception {
    IngestHandler handler = new IngestHandler(null);
    List<List<KeyValue>> batches = workload(500);
    for (int i = 0; i < batches.size(); i++) {
      if (i != 1) {
        handler.applyBatch(batches.get(i));
      }
    }
    VerifyResult result = handler.verify();
    assertFalse(result.passed());
    assertEquals(100, result.undefined(), "the next level points at every row of the lost flush");
    assertEquals(400, handler.received());
  }

  @Test
  void resetEmptiesTheTableAndTheLog() throws Exception {
    Path wal = dir.resolve("reset.wal");
    try (WriteAheadLog log = new WriteAheadLog(wal)) {
      IngestHandler handler = new IngestHandler(log);
      handler.applyBatch(batch(0, 50));
      handler.flush();
      assertTrue(Files.size(wal) > 0);
      handler.reset();
      assertEquals(0, Files.size(wal));
      assertEquals(0, handler.received());
      assertEquals(0, handler.stats().getEntries());
      assertEquals(0, handler.stats().getBytesReceived());
      handler.applyBatch(batch(100, 101));
    }
    try (WriteAheadLog log = new WriteAheadLog(wal)) {
      IngestHandler restarted = new IngestHandler(log);
      restarted.replay();
      assertEquals(List.of(kv(100, "v100")), restarted.scan(null, 10).getEntries(),
          "after a reset only what came later is replayed");
    }
  }
}
