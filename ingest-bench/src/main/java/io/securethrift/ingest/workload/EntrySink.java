package io.securethrift.ingest.workload;

import java.io.IOException;

/**
 * Where the continuous-ingest generator puts its entries. The generator relies on {@link #flush()} to make every
 * entry added so far durable before it writes entries that point at them, which is what lets the verifier demand
 * that every referenced row exists.
 */
public interface EntrySink {

  /** Accepts one entry; it may be buffered until the next flush. */
  void add(Entry entry) throws IOException;

  /** Returns only once every entry added before the call has been written. */
  void flush() throws IOException;
}
