// The embedded backend of the continuous-ingest benchmark: a stand-in for a tablet server that keeps a sorted
// in-memory table, so the benchmark measures the security layer rather than a storage engine.
namespace java io.securethrift.ingest.thrift

// One key/value, with Accumulo's key parts.
struct KeyValue {
  1: binary row
  2: binary family
  3: binary qualifier
  4: binary visibility
  5: binary value
}

// A page of a scan; resume from nextRow (exclusive of what was returned) while more is true.
struct ScanPage {
  1: list<KeyValue> entries
  2: bool more
}

// What the server spent, so the harness can tell server CPU from client CPU.
struct ServerStats {
  1: i64 entries
  2: i64 cpuNanos
  3: i64 bytesReceived
}

exception IngestFailure {
  1: string message
}

service IngestService {
  // Applies one batch (one batch-writer RPC, like Accumulo's applyUpdates); returns the number of entries stored.
  i32 applyBatch(1: list<KeyValue> entries) throws (1: IngestFailure failure)
  // Makes everything applied so far durable: syncs the write-ahead log when the server has one.
  void flush() throws (1: IngestFailure failure)
  // Returns up to maxEntries entries in key order, starting after the given key (an empty row starts at the top).
  ScanPage scan(1: KeyValue after, 2: i32 maxEntries) throws (1: IngestFailure failure)
  // Drops every entry and truncates the write-ahead log: fresh state for the next iteration.
  void reset() throws (1: IngestFailure failure)
  ServerStats stats()
}
