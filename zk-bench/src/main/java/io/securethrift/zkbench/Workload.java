package io.securethrift.zkbench;

import io.securethrift.harness.TurnLedger.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;

/**
 * One iteration of ZooKeeper's zk-latencies workload on one client: create, set, get and delete N permanent znodes
 * of 100 bytes, the same for ephemeral ones, then watches (set a watch on N znodes, delete them, receive all N
 * notifications). Requests of a phase are issued asynchronously and the phase ends with the last reply, as in
 * zk-latencies' default asynchronous mode. Then zk-latencies' synchronous mode: create, set, get and delete M
 * znodes one request at a time, each request's latency kept, so that p50 and p99 per operation type show what one
 * waiting caller sees.
 */
final class Workload {
  static final List<String> PHASES = List.of("create", "set", "get", "delete", "create-eph", "set-eph", "get-eph",
      "delete-eph", "watch");
  /** The operation types of the synchronous phase, in the order it runs them. */
  static final List<String> SYNC_OPS = List.of("create", "set", "get", "delete");
  private static final byte[] DATA = new byte[100];
  private static final long PHASE_TIMEOUT_SECONDS = 120;

  private final ZooKeeper zk;
  private final int znodes;
  private final String root;

  Workload(ZooKeeper zk, int znodes, String root) {
    this.zk = zk;
    this.znodes = znodes;
    this.root = root;
  }

  /** What one iteration measured. */
  static final class Result {
    /** Each asynchronous phase's milliseconds, in the order of {@link #PHASES}. */
    final double[] phaseMs = new double[PHASES.size()];
    /** Each synchronous request's nanoseconds, per operation type in the order of {@link #SYNC_OPS}. */
    final long[][] syncNanos = new long[SYNC_OPS.size()][];
  }

  /** One iteration, all of its {@link #steps} in order. */
  Result run(int syncCount) throws Exception {
    Result result = new Result();
    for (Step step : steps(syncCount, result)) {
      step.run();
    }
    return result;
  }

  /**
   * One iteration as steps that fill {@code into} when run in order: each asynchronous phase (the watch phase with
   * the creates of the znodes it watches), then each operation type of the synchronous phase on {@code syncCount}
   * znodes. Two workloads' steps can take turns, one step at a time.
   */
  List<Step> steps(int syncCount, Result into) {
    List<Step> steps = new ArrayList<>();
    for (CreateMode mode : List.of(CreateMode.PERSISTENT, CreateMode.EPHEMERAL)) {
      int first = mode == CreateMode.PERSISTENT ? 0 : 4;
      steps.add(timed(into, first, (p, done) -> zk.create(p, DATA, Ids.OPEN_ACL_UNSAFE, mode, stringCb(done), null)));
      steps.add(timed(into, first + 1, (p, done) -> zk.setData(p, DATA, -1, statCb(done), null)));
      steps.add(timed(into, first + 2, (p, done) -> zk.getData(p, false, dataCb(done), null)));
      steps.add(timed(into, first + 3, (p, done) -> zk.delete(p, -1, voidCb(done), null)));
    }
    steps.add(() -> {
      run((p, done) -> zk.create(p, DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stringCb(done), null));
      into.phaseMs[PHASES.size() - 1] = timedWatches();
    });
    for (int op = 0; op < SYNC_OPS.size(); op++) {
      int type = op;
      steps.add(() -> into.syncNanos[type] = sync(type, syncCount));
    }
    return steps;
  }

  /** The synchronous phase's operation type {@code op} on {@code count} znodes: each request's nanoseconds. */
  private long[] sync(int op, int count) throws KeeperException, InterruptedException {
    long[] nanos = new long[count];
    for (int i = 0; i < count; i++) {
      String path = root + "/s" + i;
      long start = System.nanoTime();
      switch (op) {
        case 0 -> zk.create(path, DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        case 1 -> zk.setData(path, DATA, -1);
        case 2 -> zk.getData(path, false, null);
        default -> zk.delete(path, -1);
      }
      nanos[i] = System.nanoTime() - start;
    }
    return nanos;
  }

  /** The {@code q} quantile (0 to 1) of {@code values} by the nearest-rank method. */
  static long quantile(long[] values, double q) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private double timedWatches() throws Exception {
    CountDownLatch fired = new CountDownLatch(znodes);
    long start = System.nanoTime();
    run((p, done) -> zk.getData(p, e -> {
      if (e.getType() == EventType.NodeDeleted) {
        fired.countDown();
      }
    }, dataCb(done), null));
    run((p, done) -> zk.delete(p, -1, voidCb(done), null));
    await(fired, "watch notifications");
    return (System.nanoTime() - start) / 1e6;
  }

  private interface Op {
    void issue(String path, Completion done);
  }

  /** Counts replies and keeps the first error. */
  private static final class Completion {
    final CountDownLatch latch;
    final AtomicReference<KeeperException.Code> error = new AtomicReference<>();

    Completion(int n) {
      latch = new CountDownLatch(n);
    }

    void reply(int rc) {
      if (rc != KeeperException.Code.OK.intValue()) {
        error.compareAndSet(null, KeeperException.Code.get(rc));
      }
      latch.countDown();
    }
  }

  /** The asynchronous phase {@code op}, its milliseconds kept as phase {@code phase} of {@code into}. */
  private Step timed(Result into, int phase, Op op) {
    return () -> {
      long start = System.nanoTime();
      run(op);
      into.phaseMs[phase] = (System.nanoTime() - start) / 1e6;
    };
  }

  private void run(Op op) throws Exception {
    Completion done = new Completion(znodes);
    for (int i = 0; i < znodes; i++) {
      op.issue(root + "/n" + i, done);
    }
    await(done.latch, "replies");
    if (done.error.get() != null) {
      throw KeeperException.create(done.error.get());
    }
  }

  private static void await(CountDownLatch latch, String what) throws InterruptedException {
    if (!latch.await(PHASE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException(latch.getCount() + " " + what + " missing after " + PHASE_TIMEOUT_SECONDS + "s");
    }
  }

  private static AsyncCallback.StringCallback stringCb(Completion done) {
    return (rc, path, ctx, name) -> done.reply(rc);
  }

  private static AsyncCallback.StatCallback statCb(Completion done) {
    return (rc, path, ctx, stat) -> done.reply(rc);
  }

  private static AsyncCallback.DataCallback dataCb(Completion done) {
    return (rc, path, ctx, data, stat) -> done.reply(rc);
  }

  private static AsyncCallback.VoidCallback voidCb(Completion done) {
    return (rc, path, ctx) -> done.reply(rc);
  }
}
