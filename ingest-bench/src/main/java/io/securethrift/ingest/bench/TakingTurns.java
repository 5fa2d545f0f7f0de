package io.securethrift.ingest.bench;

import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.harness.TurnLedger;
import io.securethrift.ingest.bench.IngestBackend.TurnAccount;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import java.io.IOException;
import java.util.concurrent.Semaphore;

/**
 * Runs two ingests in one client JVM taking turns: the first writes until a flush has taken it {@code turnEntries}
 * past its turn's start, then waits while the second does the same, and so on until both are done. At every hand-over
 * the client's and the server's processes are sampled, and what was used since the last hand-over is the turn's
 * side's, so each side's time and CPU are the sums of its own turns.
 *
 * <p>Why: this machine's CPU time for the same work moves by tens of percent in steps lasting seconds (a virtual
 * machine sharing its host), so a mode and its baseline compared in iterations a second or more apart see different
 * machines. Turns of a tenth of a second put both on the same one. Each side's first turn opens its connections, so
 * its handshakes are measured as before. Only one side runs at a time: a turn starts when a flush returned, when the
 * server has acknowledged everything written, so neither side's work spills into the other's turn, except garbage
 * collection and JIT compilation, which the CPU metric leaves out or which is small (see the benchmark docs).
 */
final class TakingTurns {
  private final IngestClient[] clients;
  private final long turnEntries;
  /**
   * This process with its garbage collection, and the server's without it: only the server JVM knows its own, and
   * it is not asked between turns.
   */
  private final TurnLedger ledger;
  /** Side i runs while it holds permit i; handing over releases the other's. */
  private final Semaphore[] baton = {new Semaphore(0), new Semaphore(0)};
  // Read and written only by the side holding the baton, which the semaphores hand over with a happens-before edge.
  private final boolean[] finished = new boolean[2];
  private volatile Throwable failure;

  /**
   * @param first the side that takes the first turn
   * @param second the other side
   * @param turnEntries entries per turn, rounded up to the next flush
   * @param serverPid the server process both clients write to, sampled with this one at every hand-over
   */
  TakingTurns(IngestClient first, IngestClient second, long turnEntries, long serverPid) {
    if (turnEntries < 1) {
      throw new IllegalArgumentException("turnEntries must be positive: " + turnEntries);
    }
    this.clients = new IngestClient[] {first, second};
    this.turnEntries = turnEntries;
    this.ledger = new TurnLedger(() -> new TargetSample(ProcessSample.self(), ProcessSample.of(serverPid)));
  }

  /** Runs both ingests of {@code options}, a count of entries, to the end; the first side's account first. */
  TurnAccount[] run(IngestOptions options) throws IOException {
    if (options.timeBased()) {
      // Each side's clock would run through the other's turns.
      throw new IllegalArgumentException("turns need a count of entries, not a duration");
    }
    IngestResult[] results = new IngestResult[2];
    Thread[] threads = new Thread[2];
    for (int i = 0; i < 2; i++) {
      int side = i;
      threads[i] = new Thread(() -> results[side] = side(side, options), "ingest-turns-" + i);
      threads[i].start();
    }
    ledger.start();
    baton[0].release();
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the ingests took turns", e);
      }
    }
    if (failure != null) {
      throw failure instanceof IOException ? (IOException) failure : new IOException(failure.getMessage(), failure);
    }
    TurnAccount[] sides = new TurnAccount[2];
    for (int i = 0; i < 2; i++) {
      IngestResult r = results[i];
      TargetSample used = ledger.used(i);
      sides[i] = new TurnAccount(new IngestResult(r.entries(), r.bytes(), ledger.wallNanos(i),
          used.client().cpuNanos()), used, ledger.turns(i));
    }
    return sides;
  }

  private IngestResult side(int i, IngestOptions options) {
    IngestResult result = null;
    try {
      baton[i].acquire();
      if (failure == null) {
        long[] turnStart = {0};
        result = clients[i].ingest(options, written -> {
          // Not at the last flush: the turn that wrote it also closes the connections, instead of leaving that to
          // a turn of its own.
          if (written < options.entries() && written - turnStart[0] >= turnEntries && !finished[1 - i]) {
            handOver(i);
            turnStart[0] = written;
          }
        });
        ledger.endTurn(i);
      }
    } catch (Throwable t) {
      synchronized (this) {
        if (failure == null) {
          failure = t;
        }
      }
    } finally {
      finished[i] = true;
      baton[1 - i].release();
    }
    return result;
  }

  /** Ends side {@code i}'s turn and waits for its next one. */
  private void handOver(int i) throws IOException {
    ledger.endTurn(i);
    baton[1 - i].release();
    baton[i].acquireUninterruptibly();
    if (failure != null) {
      throw new IOException("the other ingest failed: " + failure.getMessage());
    }
  }
}
