package io.securethrift.accumulo.ingest;

import java.time.Duration;

/** CPU time of a process as the operating system accounts it, so client and server are measured the same way. */
final class ProcessCpu {
  private ProcessCpu() {}

  /** User plus system CPU time so far, or 0 when the OS does not report it. */
  static long nanos(ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
