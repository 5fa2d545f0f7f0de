package io.securethrift.ingest.workload;

import java.io.IOException;
import java.util.List;

/**
 * Ships one batch of entries to the store: one call is one batch, as one {@code applyUpdates} round trip is in
 * Accumulo.
 *
 * <p>Batches are lists of {@link Entry} rather than pre-encoded bytes so that the writer stays independent of the wire
 * format: a Thrift sender turns them into its own update structures (and groups them by row or server) in one pass,
 * whereas a byte buffer chosen here would have to be decoded again or would force one encoding on every transport.
 * The entries' arrays are shared, not copied, so handing over a list costs nothing.
 *
 * <p>The batch writer calls {@code send} from several threads at once, so implementations must be thread-safe. The
 * list belongs to the sender once passed; the writer never touches it again.
 */
@FunctionalInterface
public interface BatchSender {

  /** Sends the batch and returns once the store has accepted it; throws if it did not. */
  void send(List<Entry> batch) throws IOException;
}
