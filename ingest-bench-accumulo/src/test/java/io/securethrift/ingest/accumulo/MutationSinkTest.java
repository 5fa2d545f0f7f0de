package io.securethrift.ingest.accumulo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.ingest.workload.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.accumulo.core.client.AccumuloClient;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.data.ColumnUpdate;
import org.apache.accumulo.core.data.Mutation;
import org.junit.jupiter.api.Test;

/** Entries into Accumulo's batch writer: one mutation each, the bytes counted, a rejection as an IOException. */
class MutationSinkTest {
  @Test
  void eachEntryIsOneMutationOfItsKeyAndValue() throws Exception {
    FakeWriter writer = new FakeWriter();
    MutationSink sink = new MutationSink(writer, MutationSink.Watcher.NONE);
    sink.add(entry("row1", "fam", "qual", "", "value"));
    sink.add(entry("row2", "f", "q", "A&B", "v"));
    assertEquals(2, writer.added.size());
    Mutation first = writer.added.get(0);
    assertArrayEquals(bytes("row1"), first.getRow());
    ColumnUpdate update = first.getUpdates().get(0);
    assertEquals(1, first.getUpdates().size());
    assertArrayEquals(bytes("fam"), update.getColumnFamily());
    assertArrayEquals(bytes("qual"), update.getColumnQualifier());
    assertArrayEquals(new byte[0], update.getColumnVisibility(), "an empty visibility is public");
    assertArrayEquals(bytes("value"), update.getValue());
    assertArrayEquals(bytes("A&B"), writer.added.get(1).getUpdates().get(0).getColumnVisibility());
  }

  @Test
  void bytesCountKeysAndValuesHandedOver() throws Exception {
    MutationSink sink = new MutationSink(new FakeWriter(), MutationSink.Watcher.NONE);
    assertEquals(0, sink.bytes());
    sink.add(entry("row1", "fam", "qual", "", "value"));
    assertEquals(4 + 3 + 4 + 0 + 5, sink.bytes());
    sink.add(entry("r", "f", "q", "A&B", "vv"));
    assertEquals(16 + 1 + 1 + 1 + 3 + 2, sink.bytes());
  }

  @Test
  void theWatcherSeesEachEntryBeforeTheWriterAndEachFlushAfterIt() throws Exception {
    List<String> events = new ArrayList<>();
    FakeWriter writer = new FakeWriter() {
      @Override
      public void addMutation(Mutation m) throws MutationsRejectedException {
        events.add("writer " + new String(m.getRow(), UTF_8));
        super.addMutation(m);
      }

      @Override
      public void flush() {
        events.add("writer flush");
      }
    };
    MutationSink sink = new MutationSink(writer, new MutationSink.Watcher() {
      @Override
      public void added(Entry entry) {
        events.add("added " + new String(entry.row(), UTF_8));
      }

      @Override
      public void flushed() {
        events.add("flushed");
      }
    });
    sink.add(entry("a", "f", "q", "", "v"));
    sink.flush();
    assertEquals(List.of("added a", "writer a", "writer flush", "flushed"), events);
  }

  @Test
  void rejectedMutationsAreAnIoExceptionWithTheCause() {
    MutationsRejectedException rejection = rejection();
    FakeWriter writer = new FakeWriter() {
      @Override
      public void addMutation(Mutation m) throws MutationsRejectedException {
        throw rejection;
      }

      @Override
      public void flush() throws MutationsRejectedException {
        throw rejection;
      }
    };
    List<String> flushes = new ArrayList<>();
    MutationSink sink = new MutationSink(writer, new MutationSink.Watcher() {
      @Override
      public void added(Entry entry) {}

      @Override
      public void flushed() {
        flushes.add("flushed");
      }
    });
    IOException added = assertThrows(IOException.class, () -> sink.add(entry("a", "f", "q", "", "v")));
    assertEquals("Accumulo rejected mutations: " + rejection.getMessage(), added.getMessage());
    assertSame(rejection, added.getCause());
    IOException flushed = assertThrows(IOException.class, sink::flush);
    assertSame(rejection, flushed.getCause());
    assertEquals(List.of(), flushes, "a failed flush acknowledged nothing");
    assertEquals(1 + 1 + 1 + 0 + 1, sink.bytes(), "the entry was handed over before it was refused");
  }

  private static MutationsRejectedException rejection() {
    return new MutationsRejectedException((AccumuloClient) null, List.of(), Map.of(), List.of("tserver:9997"), 0,
        null);
  }

  private static Entry entry(String row, String family, String qualifier, String visibility, String value) {
    return new Entry(bytes(row), bytes(family), bytes(qualifier), bytes(visibility), bytes(value));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  /** A batch writer that keeps what it is given. */
  private static class FakeWriter implements BatchWriter {
    final List<Mutation> added = new ArrayList<>();

    @Override
    public void addMutation(Mutation m) throws MutationsRejectedException {
      added.add(m);
    }

    @Override
    public void addMutations(Iterable<Mutation> iterable) {
      iterable.forEach(added::add);
    }

    @Override
    public void flush() throws MutationsRejectedException {}

    @Override
    public void close() {}
  }
}
