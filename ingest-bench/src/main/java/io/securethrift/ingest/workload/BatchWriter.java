package io.securethrift.ingest.workload;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Buffers entries and sends them in batches on background threads, with the three knobs of Accumulo's
 * {@code BatchWriterConfig}: a memory limit, a maximum latency and a number of write threads.
 *
 * <ul>
 *   <li>Memory: entries count against the limit from {@link #add} until their batch has been sent. A batch is cut
 *       once the buffer holds {@code maxMemory / (2 * writeThreads)} bytes, so all threads can be busy while half the
 *       budget is still free for new entries (with one thread that is Accumulo's "send at half full"). When the limit
 *       is reached, {@code add} blocks until a batch completes.</li>
 *   <li>Latency: no entry waits in the buffer longer than {@code maxLatency}; a timer cuts the batch if it has not
 *       been cut by then.</li>
 *   <li>Errors: retrying is the sender's job ({@code ThriftBatchSender} retries a batch on a new connection as its
 *       retry policy says), since only it knows which failures a new connection can cure. If a send still fails,
 *       the writer is failed for good and the next {@link #add}, {@link #flush} or {@link #close} throws an
 *       {@link IOException} naming the rejected batches and carrying the first failure as its cause, as Accumulo's
 *       {@code MutationsRejectedException} does; a flush never returns while a batch before it is unacknowledged.</li>
 * </ul>
 *
 * Thread-safe; {@link #add} blocks while a {@link #flush} is waiting, so a flush cannot be starved by other adders.
 */
public final class BatchWriter implements EntrySink, Closeable {

  /** Accumulo's default memory limit, 50 MiB. */
  public static final long DEFAULT_MAX_MEMORY = 50L * 1024 * 1024;

  /** Accumulo's default maximum latency, two minutes. */
  public static final Duration DEFAULT_MAX_LATENCY = Duration.ofMinutes(2);

  /** Accumulo's default number of write threads. */
  public static final int DEFAULT_WRITE_THREADS = 3;

  /** Distinguishes the threads of different writers in thread dumps. */
  private static final AtomicInteger WRITER_IDS = new AtomicInteger();

  private final BatchSender sender;
  private final long maxMemory;
  private final long batchBytes;
  private final long maxLatencyNanos;
  private final ThreadPoolExecutor senders;
  private final ScheduledThreadPoolExecutor latencyTimer;

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled whenever a batch completes or a flush ends, the only events anyone waits for. */
  private final Condition changed = lock.newCondition();

  // All fields below are guarded by lock.
  private List<Entry> buffer = new ArrayList<>();
  private long bufferBytes;
  /** Bumped whenever the buffer is cut, so a latency timer for an earlier buffer does nothing. */
  private long bufferGeneration;
  private ScheduledFuture<?> latencyTask;
  /** Bytes buffered or being sent. */
  private long usedBytes;
  private int batchesInFlight;
  private int flushesWaiting;
  private boolean closed;
  private Throwable firstFailure;
  private int failedBatches;
  private long failedEntries;

  /** A writer with Accumulo's defaults: 50 MiB, two minutes, three threads. */
  public BatchWriter(BatchSender sender) {
    this(sender, DEFAULT_MAX_MEMORY, DEFAULT_MAX_LATENCY, DEFAULT_WRITE_THREADS);
  }

  /**
   * @param sender ships each batch; called from {@code writeThreads} threads concurrently
   * @param maxMemory bytes that may be buffered or in flight before {@link #add} blocks
   * @param maxLatency longest time an entry may wait before its batch is sent
   * @param writeThreads how many batches may be sent concurrently
   */
  public BatchWriter(BatchSender sender, long maxMemory, Duration maxLatency, int writeThreads) {
    this.sender = Objects.requireNonNull(sender, "sender");
    if (maxMemory <= 0 || writeThreads <= 0 || maxLatency.isNegative() || maxLatency.isZero()) {
      throw new IllegalArgumentException("memory, latency and threads must be positive");
    }
    this.maxMemory = maxMemory;
    this.batchBytes = Math.max(1, maxMemory / (2L * writeThreads));
    this.maxLatencyNanos = saturatedNanos(maxLatency);
    String prefix = "batch-writer-" + WRITER_IDS.incrementAndGet();
    this.senders = new ThreadPoolExecutor(writeThreads, writeThreads, 0, TimeUnit.NANOSECONDS,
        new LinkedBlockingQueue<>(), daemonThreads(prefix + "-send-"));
    this.latencyTimer = new ScheduledThreadPoolExecutor(1, daemonThreads(prefix + "-latency-"));
    latencyTimer.setRemoveOnCancelPolicy(true);
  }

  /** Buffers the entry, blocking while the memory limit is reached or a flush is waiting. */
  @Override
  public void add(Entry entry) throws IOException {
    long size = entry.estimatedBytes();
    lock.lock();
    try {
      ensureOpen();
      while ((usedBytes >= maxMemory || flushesWaiting > 0) && firstFailure == null) {
        await();
      }
      throwIfFailed();
      if (buffer.isEmpty()) {
        startLatencyTimer();
      }
      buffer.add(entry);
      bufferBytes += size;
      usedBytes += size;
      if (bufferBytes >= batchBytes) {
        cutBatch();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Sends everything buffered and returns once every entry added before the call has been sent. */
  @Override
  public void flush() throws IOException {
    lock.lock();
    try {
      ensureOpen();
      throwIfFailed();
      flushesWaiting++;
      try {
        if (!buffer.isEmpty()) {
          cutBatch();
        }
        while (batchesInFlight > 0) {
          await();
        }
      } finally {
        flushesWaiting--;
        changed.signalAll();
      }
      throwIfFailed();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sends what is buffered (unless the writer has already failed), waits for all sends and stops the writer's
   * threads; throws if any batch was rejected. Calling it again does nothing.
   */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (firstFailure == null && !buffer.isEmpty()) {
        cutBatch();
      } else {
        cancelLatencyTimer();
      }
    } finally {
      lock.unlock();
    }
    latencyTimer.shutdownNow();
    senders.shutdown();
    try {
      latencyTimer.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
      senders.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(e);
    }
    lock.lock();
    try {
      throwIfFailed();
    } finally {
      lock.unlock();
    }
  }

  /** Hands the buffer to a write thread and starts a new one; lock held. */
  private void cutBatch() {
    List<Entry> batch = buffer;
    long bytes = bufferBytes;
    buffer = new ArrayList<>(batch.size());
    bufferBytes = 0;
    cancelLatencyTimer();
    batchesInFlight++;
    senders.execute(() -> send(batch, bytes));
  }

  /** Runs on a write thread. */
  private void send(List<Entry> batch, long bytes) {
    int entries = batch.size();
    Throwable failure = null;
    try {
      sender.send(batch);
    } catch (Throwable t) {
      failure = t;
    }
    lock.lock();
    try {
      usedBytes -= bytes;
      batchesInFlight--;
      if (failure != null) {
        if (firstFailure == null) {
          firstFailure = failure;
        }
        failedBatches++;
        failedEntries += entries;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Arms the latency timer for the buffer that is about to receive its first entry; lock held. */
  private void startLatencyTimer() {
    long generation = bufferGeneration;
    latencyTask = latencyTimer.schedule(() -> onLatencyExpired(generation), maxLatencyNanos,
        TimeUnit.NANOSECONDS);
  }

  private void cancelLatencyTimer() {
    bufferGeneration++;
    if (latencyTask != null) {
      latencyTask.cancel(false);
      latencyTask = null;
    }
  }

  /** Runs on the timer thread; cuts the buffer unless it was already cut since the timer was armed. */
  private void onLatencyExpired(long generation) {
    lock.lock();
    try {
      if (!closed && generation == bufferGeneration && !buffer.isEmpty()) {
        cutBatch();
      }
    } finally {
      lock.unlock();
    }
  }

  private void await() throws InterruptedIOException {
    try {
      changed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("batch writer is closed");
    }
  }

  private void throwIfFailed() throws IOException {
    if (firstFailure != null) {
      throw new IOException("batch sender rejected " + failedBatches + " batch(es) with " + failedEntries
          + " entries; first failure: " + firstFailure, firstFailure);
    }
  }

  private static InterruptedIOException interrupted(InterruptedException cause) {
    InterruptedIOException e = new InterruptedIOException("interrupted while waiting for the batch writer");
    e.initCause(cause);
    return e;
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + next.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
