package io.securethrift.harness;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The accounts of two sides taking turns on one machine: a mode and its baseline, run one at a time in turns of a
 * tenth of a second or one step each. The processes are sampled at every hand-over, and what was used since the last
 * one is booked to the side whose turn it was, so each side's wall time, CPU and garbage collection are the sums of
 * its own turns.
 *
 * <p>Why: this machine's CPU time for the same work moves by tens of percent in steps lasting seconds (a virtual
 * machine sharing its host), so a mode and its baseline measured a whole iteration apart meet different machines;
 * turns put both on the same one (docs/benchmarks.md, "Method in brief"). Hand-overs must come from the sides
 * themselves, one at a time; the ledger is not for concurrent use, but a hand-over through a lock or semaphore gives
 * the next side everything booked before it.
 */
public final class TurnLedger {
  /** One side's step of work in {@link #alternate}. */
  public interface Step {
    void run() throws Exception;
  }

  private final Supplier<TargetSample> sampler;
  private final LongSupplier nanoClock;
  private final TargetSample[] used = {TargetSample.ZERO, TargetSample.ZERO};
  private final long[] wallNanos = new long[2];
  private final int[] turns = new int[2];
  private TargetSample mark;
  private long markNanos;

  /** Sampling with {@code sampler} (the client and server processes) at every hand-over. */
  public TurnLedger(Supplier<TargetSample> sampler) {
    this(sampler, System::nanoTime);
  }

  TurnLedger(Supplier<TargetSample> sampler, LongSupplier nanoClock) {
    this.sampler = sampler;
    this.nanoClock = nanoClock;
  }

  /** Marks the start of the first turn. */
  public void start() {
    markNanos = nanoClock.getAsLong();
    mark = sampler.get();
  }

  /** Books what was used since the last hand-over (or {@link #start}) to {@code side}, and marks the next turn. */
  public void endTurn(int side) {
    if (mark == null) {
      throw new IllegalStateException("a turn ended before the ledger started");
    }
    long now = nanoClock.getAsLong();
    TargetSample sample = sampler.get();
    wallNanos[side] += now - markNanos;
    used[side] = used[side].plus(sample.minus(mark));
    turns[side]++;
    markNanos = now;
    mark = sample;
  }

  /**
   * Runs the two sides' steps one at a time, step {@code i} of both before step {@code i + 1} of either, each booked
   * to its side. Side {@code firstInEvenSteps} goes first in even steps and second in odd ones, so that a steady drift
   * of the machine falls on both sides alike.
   */
  public void alternate(List<? extends Step> side0, List<? extends Step> side1, int firstInEvenSteps)
      throws Exception {
    if (side0.size() != side1.size()) {
      throw new IllegalArgumentException("the sides have " + side0.size() + " and " + side1.size() + " steps");
    }
    List<List<? extends Step>> sides = List.of(side0, side1);
    start();
    for (int i = 0; i < side0.size(); i++) {
      int first = i % 2 == 0 ? firstInEvenSteps : 1 - firstInEvenSteps;
      for (int side : new int[] {first, 1 - first}) {
        sides.get(side).get(i).run();
        endTurn(side);
      }
    }
  }

  /** What {@code side} used in its turns. */
  public TargetSample used(int side) {
    return used[side];
  }

  /** The wall time of {@code side}'s turns. */
  public long wallNanos(int side) {
    return wallNanos[side];
  }

  /** How many turns {@code side} has had. */
  public int turns(int side) {
    return turns[side];
  }
}
