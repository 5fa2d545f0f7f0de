package io.securethrift.netty;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread pool that starts a thread only when none of those it started is waiting for work, up to its maximum, and
 * ends a thread that waited for work for the keep-alive. A plain {@link ThreadPoolExecutor} starts a thread for every
 * task until it has its core size, even while the threads it started wait: sixty-four calls one after another left
 * sixty-four workers, and a benchmark's warm-up left them to 10,000 idle connections. Here the threads alive are as
 * many as the most tasks that ran at once.
 */
final class ElasticPool {
  private ElasticPool() {}

  /**
   * A pool of at most {@code maxThreads} threads named {@code name}, whose waiting tasks beyond those are held in a
   * queue of {@code queueCapacity}; a task that finds the queue full is refused with a
   * {@link RejectedExecutionException}, as is one given after shutdown.
   */
  static ThreadPoolExecutor create(int maxThreads, int queueCapacity, Duration keepAlive, String name) {
    StartWhenNoneWaits queue = new StartWhenNoneWaits(queueCapacity);
    ThreadPoolExecutor pool = new ThreadPoolExecutor(0, maxThreads, keepAlive.toNanos(), TimeUnit.NANOSECONDS, queue,
        new DefaultThreadFactory(name, true), (task, executor) -> {
          // The pool could not start a thread (it reached its maximum since the queue said to start one): queue it.
          if (executor.isShutdown() || !queue.enqueue(task)) {
            throw new RejectedExecutionException(executor.isShutdown() ? name + " pool is shut down"
                : name + " pool has " + queueCapacity + " tasks waiting");
          }
        });
    queue.pool = pool;
    return pool;
  }

  /** Threads of a pool {@link #create} made that are waiting for a task now. */
  static int waitingThreads(ThreadPoolExecutor pool) {
    return ((StartWhenNoneWaits) pool.getQueue()).waitingThreads.get();
  }

  /**
   * Refuses a task (so the pool starts a thread for it) while fewer threads wait for work than tasks wait for a thread
   * and the pool may still grow; takes it otherwise.
   */
  private static final class StartWhenNoneWaits extends LinkedBlockingQueue<Runnable> {
    private static final long serialVersionUID = 1L;
    private final AtomicInteger waitingThreads = new AtomicInteger();
    private transient volatile ThreadPoolExecutor pool;

    StartWhenNoneWaits(int capacity) {
      super(capacity);
    }

    @Override
    public boolean offer(Runnable task) {
      if (waitingThreads.get() <= size() && pool.getPoolSize() < pool.getMaximumPoolSize()) {
        return false;
      }
      return super.offer(task);
    }

    boolean enqueue(Runnable task) {
      return super.offer(task);
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
      waitingThreads.incrementAndGet();
      try {
        return super.poll(timeout, unit);
      } finally {
        waitingThreads.decrementAndGet();
      }
    }

    @Override
    public Runnable take() throws InterruptedException {
      waitingThreads.incrementAndGet();
      try {
        return super.take();
      } finally {
        waitingThreads.decrementAndGet();
      }
    }
  }
}
