package io.securethrift.core.testing;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes allocated by the calling thread, for tests that prove a reader allocates according to what arrived and
 * not to what a length header claims. Counting per thread keeps other threads' garbage out of the measurement.
 */
public final class AllocationMeter {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private AllocationMeter() {}

  /**
   * Bytes this thread has allocated since it started; subtract two readings to measure a call. By thread id, since
   * getCurrentThreadAllocatedBytes() is Java 14 and these tests run on Java 11 too.
   */
  public static long allocatedBytes() {
    return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
