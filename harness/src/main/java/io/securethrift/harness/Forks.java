package io.securethrift.harness;

/**
 * Forks, as JMH has them: a benchmark runs each mode in several sets of processes (JVMs), which take the measured
 * rounds in turn, so that one set's lasting offset (how its JIT compiled the paths, how its collector sized the heap,
 * which server of an ensemble leads) counts as noise in the per-round ratios instead of staying hidden in every round.
 * Every warm-up round runs on every fork, so each has compiled its paths before it is measured.
 */
public final class Forks {
  /** The raw rows' column naming the fork (from 0) that measured a row. */
  public static final String COLUMN = "fork";

  private Forks() {}

  /**
   * The fork that runs measured round {@code round} (from 1): the forks take the rounds in turn two at a time (rounds
   * 1 and 2 the first, 3 and 4 the second, ...), so that every fork runs as many rounds with a mode's own baseline
   * going first as with the mode going first ({@link PairedAnalysis#ownBaselineFirst}). Going first costs more (in
   * three idle ingest runs a mode's ratio came out 0.01 to 0.15 higher in the rounds where it took the first turn);
   * one round each would tie each fork to one order.
   *
   * @param forks how many forks each mode has, at least 1
   */
  public static int measuring(int round, int forks) {
    if (round < 1 || forks < 1) {
      throw new IllegalArgumentException("round " + round + " of " + forks + " forks: rounds count from 1, forks"
          + " from 1");
    }
    return ((round - 1) / 2) % forks;
  }
}
