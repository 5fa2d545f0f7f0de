package io.securethrift.bench.server;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.ProcessSample;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One server JVM ({@link BenchServerProcess}) as the benchmark sees it: its port, its resident memory and threads
 * read from {@code /proc/<pid>/status}, and its heap in use after a collection.
 */
final class ServerUnderTest implements AutoCloseable {
  private final ChildJvm jvm;
  private final int port;
  private final long threadsBeforeServer;
  final BenchMode mode;
  final ServerKind kind;

  private ServerUnderTest(ChildJvm jvm, int port, long threadsBeforeServer, BenchMode mode, ServerKind kind) {
    this.jvm = jvm;
    this.port = port;
    this.threadsBeforeServer = threadsBeforeServer;
    this.mode = mode;
    this.kind = kind;
  }

  /**
   * Starts a server JVM on the options' runtime with their fixed maximum heap and the default initial one, so that a
   * full collection (see {@link #heapUsed}) gives back heap it no longer needs and resident memory follows what
   * connections hold rather than how much garbage opening them made. Its output goes to {@code log}.
   */
  static ServerUnderTest start(BenchMaterial material, BenchMode mode, TlsEngine engine, ServerKind kind,
      ServerBenchOptions options, Path log) throws IOException {
    return start(material, mode, engine, kind, options, log, false);
  }

  /**
   * As {@link #start(BenchMaterial, BenchMode, TlsEngine, ServerKind, ServerBenchOptions, Path)}, requiring TLS
   * clients' certificates if {@code mutual}.
   */
  static ServerUnderTest start(BenchMaterial material, BenchMode mode, TlsEngine engine, ServerKind kind,
      ServerBenchOptions options, Path log, boolean mutual) throws IOException {
    List<String> args = new ArrayList<>(List.of(material.dir().toString(), mode.name(), engine.token(),
        kind.token()));
    if (mutual) {
      args.add(BenchServerProcess.MUTUAL);
    }
    ChildJvm jvm = ChildJvm.builder(BenchServerProcess.class).name(kind + " server (" + mode + ")")
        .javaHome(options.serverJava).jvmOptions(List.of("-Xmx" + options.serverHeap,
            ProcessSample.KEEP_COMPILER_THREADS))
        .args(args).log(log).talk().start();
    try {
      LineRecord ready = jvm.answer();
      return new ServerUnderTest(jvm, ready.getInt("port"), ready.getLong("threads"), mode, kind);
    } catch (IOException | RuntimeException e) {
      jvm.close();
      throw e;
    }
  }

  int port() {
    return port;
  }

  /** CPU time and context switches the server JVM has spent so far. */
  ProcCost cost() {
    return ProcCost.of(jvm.process().pid());
  }

  /** CPU time the server JVM's JIT compiler threads have spent so far. */
  long jitNanos() {
    return ProcessSample.of(jvm.process().pid()).jitNanos();
  }

  ProcStatus status() {
    return ProcStatus.of(jvm.process().pid());
  }

  /** Threads the server has now beyond those the JVM had before it started (GC, compiler, signal handling). */
  long serverThreads() {
    return status().threads() - threadsBeforeServer;
  }

  /** Heap bytes in use after a full collection in the server JVM. */
  long heapUsed() throws IOException {
    return jvm.call(LineRecord.of(BenchServerProcess.HEAP)).getLong("bytes");
  }

  /**
   * What the server JVM holds: heap bytes in use after a full collection, plus the direct memory Netty's pooled
   * allocator holds (its chunks, which a buffer pins whole), which no collection gives back.
   */
  long memoryHeld() throws IOException {
    LineRecord heap = jvm.call(LineRecord.of(BenchServerProcess.HEAP));
    return heap.getLong("bytes") + heap.getLong("direct");
  }

  @Override
  public void close() {
    jvm.close();
  }
}
