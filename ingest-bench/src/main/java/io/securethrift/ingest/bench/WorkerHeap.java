package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import java.util.OptionalLong;

/**
 * The heaps of the embedded backend's worker JVMs, sized so that every target of a run fits in its share of the
 * machine's memory: the default run keeps 20 server and 20 client JVMs alive at once (10 modes, 2 forks), and with
 * the 1 GB heaps they once all had, they grew to some 24 GB together and the kernel killed one of them mid-run.
 * A server's heap is fixed (minimum = maximum, see {@link EmbeddedBackend}); a client's is a maximum.
 */
record WorkerHeap(int serverMb, int clientMb) {
  /** The largest server heap, what every server had before heaps were sized: more changes no figure. */
  static final int MAX_SERVER_MB = 1024;
  /**
   * The smallest server heap: the secured and the baseline table of a 500,000-entry iteration (some 50 MB each,
   * copied into chunks) and the objects verification makes from them, with room for the collector to stay young.
   */
  static final int MIN_SERVER_MB = 256;
  /** A client's heap: it holds one batch at a time; without a bound, its JVM settled at some 320 MB resident. */
  static final int CLIENT_MB = 384;
  /** What a JVM holds outside its heap (metaspace, code cache, thread stacks, direct buffers), estimated high. */
  static final int OUTSIDE_HEAP_MB = 160;
  /** Heap sizes are whole multiples of this. */
  private static final int GRAIN_MB = 32;

  /** Heaps for one target (a server and a client JVM), given its share of the memory available; none: the largest. */
  static WorkerHeap forShare(OptionalLong bytesPerTarget) {
    if (bytesPerTarget.isEmpty()) {
      return new WorkerHeap(MAX_SERVER_MB, CLIENT_MB);
    }
    long shareMb = bytesPerTarget.getAsLong() >> 20;
    long serverMb = (shareMb - CLIENT_MB - 2L * OUTSIDE_HEAP_MB) / GRAIN_MB * GRAIN_MB;
    if (serverMb < MIN_SERVER_MB) {
      throw new ConfigException("--forks", String.format(java.util.Locale.ROOT, "each mode's server and client JVMs"
          + " would have %,d MB of this machine's available memory, and need at least %,d MB; run fewer at once"
          + " (--forks 1, fewer --modes or one --server model), or free memory", Math.max(0, shareMb),
          MIN_SERVER_MB + CLIENT_MB + 2 * OUTSIDE_HEAP_MB));
    }
    return new WorkerHeap((int) Math.min(serverMb, MAX_SERVER_MB), CLIENT_MB);
  }
}
