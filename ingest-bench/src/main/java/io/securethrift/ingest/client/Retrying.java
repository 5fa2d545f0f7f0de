package io.securethrift.ingest.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a call to one ingest server under a {@link RetryPolicy}. Only connection failures ({@link
 * TTransportException}: connect, handshake, read or write failed, including a Kerberos login that failed while the
 * KDC was down) are retried; an error the server answered with ({@code IngestFailure}, an application exception) is
 * not, since trying again would get the same answer. Each try runs on a connection of its own choosing, so a retry
 * re-opens the connection: a new handshake, and with Kerberos a fresh ticket when the old one expired (the library
 * logs in again from the keytab when it finds the ticket expired).
 */
final class Retrying {
  private static final Logger LOG = LoggerFactory.getLogger(Retrying.class);

  private final RetryPolicy policy;
  private final RetryCounters counters;
  private final String peer;

  Retrying(RetryPolicy policy, RetryCounters counters, String peer) {
    this.policy = policy;
    this.counters = counters;
    this.peer = peer;
  }

  /** One try; {@code retry} is true for every try after the first. */
  @FunctionalInterface
  interface Attempt<T> {
    T run(boolean retry) throws TException;
  }

  /**
   * Runs {@code attempt} until it succeeds or the policy's tries are spent. Returns only what a try returned, so
   * nothing counts as done that the server did not acknowledge.
   *
   * @param what the call, for the error ("applyBatch of 1000 entries")
   */
  <T> T call(String what, Attempt<T> attempt) throws IOException {
    long firstFailure = 0;
    for (int tries = 1; ; tries++) {
      try {
        T result = attempt.run(tries > 1);
        if (tries > 1) {
          counters.lost(System.nanoTime() - firstFailure);
        }
        return result;
      } catch (TTransportException e) {
        long now = System.nanoTime();
        if (tries == 1) {
          firstFailure = now;
        }
        if (tries >= policy.maxAttempts()) {
          counters.lost(now - firstFailure);
          throw new IOException(what + " to " + peer + " failed after " + tries + " tr" + (tries == 1 ? "y" : "ies")
              + " (retry max attempts " + policy.maxAttempts() + "): " + e.getMessage(), e);
        }
        Duration wait = policy.backoff(tries, ThreadLocalRandom.current().nextDouble());
        LOG.warn("{} to {} failed (try {} of {}), retrying in {} ms on a new connection: {}", what, peer, tries,
            policy.maxAttempts(), wait.toMillis(), e.getMessage());
        backOff(wait, what);
        counters.retried();
      } catch (TException e) {
        throw new IOException(what + " to " + peer + " failed: " + e.getMessage(), e);
      }
    }
  }

  private void backOff(Duration wait, String what) throws InterruptedIOException {
    try {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException stop = new InterruptedIOException("interrupted while waiting to retry " + what + " to "
          + peer);
      stop.initCause(e);
      throw stop;
    }
  }
}
