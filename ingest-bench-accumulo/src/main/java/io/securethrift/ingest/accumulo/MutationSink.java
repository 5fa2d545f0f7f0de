package io.securethrift.ingest.accumulo;

import io.securethrift.ingest.workload.Entry;
import io.securethrift.ingest.workload.EntrySink;
import java.io.IOException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.security.ColumnVisibility;

/**
 * Feeds generated entries to Accumulo's {@link BatchWriter}, one mutation per entry as Accumulo's continuous ingest
 * does, and counts the key and value bytes handed over.
 */
final class MutationSink implements EntrySink {
  private static final ColumnVisibility PUBLIC = new ColumnVisibility();

  /** What a fault run watches of the writing. */
  interface Watcher {
    /** Watches nothing: the benchmark's runs. */
    Watcher NONE = new Watcher() {
      @Override
      public void added(Entry entry) {}

      @Override
      public void flushed() {}
    };

    /** An entry is about to be handed to the batch writer. */
    void added(Entry entry);

    /** A flush returned: Accumulo acknowledged every entry added before it. */
    void flushed();
  }

  private final BatchWriter writer;
  private final Watcher watcher;
  private long bytes;

  MutationSink(BatchWriter writer, Watcher watcher) {
    this.writer = writer;
    this.watcher = watcher;
  }

  @Override
  public void add(Entry entry) throws IOException {
    Mutation m = new Mutation(entry.row());
    m.put(entry.family(), entry.qualifier(),
        entry.visibility().length == 0 ? PUBLIC : new ColumnVisibility(entry.visibility()), entry.value());
    bytes += entry.keyValueBytes();
    watcher.added(entry);
    try {
      writer.addMutation(m);
    } catch (MutationsRejectedException e) {
      throw rejected(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      writer.flush();
    } catch (MutationsRejectedException e) {
      throw rejected(e);
    }
    watcher.flushed();
  }

  /** Key and value bytes added so far. */
  long bytes() {
    return bytes;
  }

  static IOException rejected(MutationsRejectedException e) {
    return new IOException("Accumulo rejected mutations: " + e.getMessage(), e);
  }
}
