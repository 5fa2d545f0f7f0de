package io.securethrift.harness;

/**
 * What a benchmark target's client and server processes (for ZooKeeper, the whole ensemble) have used so far; the
 * difference of two samples taken around an iteration is that iteration's cost on each side, and the sum of several
 * differences their total.
 */
public record TargetSample(ProcessSample client, ProcessSample server) {
  /** Nothing used yet on either side: where a sum of differences starts. */
  public static final TargetSample ZERO = new TargetSample(ProcessSample.ZERO, ProcessSample.ZERO);

  public TargetSample minus(TargetSample before) {
    return new TargetSample(client.minus(before.client), server.minus(before.server));
  }

  /** Both sides' use added up. */
  public TargetSample plus(TargetSample other) {
    return new TargetSample(client.plus(other.client), server.plus(other.server));
  }
}
