package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ElasticPoolTest {

  @Test
  void tasksOneAfterAnotherRunOnOneThread() throws Exception {
    ThreadPoolExecutor pool = ElasticPool.create(64, Integer.MAX_VALUE, Duration.ofSeconds(30), "elastic-test");
    try {
      for (int i = 0; i < 200; i++) {
        pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
        // The thread that ran it is back waiting for work before the next task comes, as a worker is by the time a
        // call's reply has been written and the connection's next call arrives. (Between the end of a task and its
        // thread's next wait, a task that comes finds none waiting and starts another thread, up to the maximum.)
        Await.until("a thread waits", Duration.ofSeconds(10), () -> ElasticPool.waitingThreads(pool) == 1);
      }
      assertEquals(1, pool.getPoolSize(), "a plain ThreadPoolExecutor would have started 64");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void tasksAtOnceGrowItToItsMaximumThenWaitAndAreRefusedWhenTheQueueIsFull() throws Exception {
    ThreadPoolExecutor pool = ElasticPool.create(4, 2, Duration.ofMillis(200), "elastic-test");
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(4);
    try {
      for (int i = 0; i < 4; i++) {
        pool.execute(() -> {
          running.countDown();
          await(release);
        });
      }
      assertTrue(running.await(10, TimeUnit.SECONDS), "four tasks run at once on four threads");
      assertEquals(4, pool.getPoolSize());
      Future<?> fifth = pool.submit(() -> { });
      Future<?> sixth = pool.submit(() -> { });
      RejectedExecutionException full = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
      assertEquals("elastic-test pool has 2 tasks waiting", full.getMessage());
      release.countDown();
      fifth.get(10, TimeUnit.SECONDS);
      sixth.get(10, TimeUnit.SECONDS);
      // Idle for the keep-alive, every thread ends.
      Await.until("pool.getPoolSize() == 0", Duration.ofSeconds(10), () -> pool.getPoolSize() == 0);
      pool.shutdown();
      assertEquals("elastic-test pool is shut down",
          assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { })).getMessage());
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
