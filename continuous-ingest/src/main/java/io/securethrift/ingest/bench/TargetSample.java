package io.securethrift.ingest.bench;

import io.securethrift.benchstats.ProcessSample;

/**
 * What a target's client and server processes have used so far; the difference of two samples taken around an
 * iteration is that iteration's cost on each side.
 */
public record TargetSample(ProcessSample client, ProcessSample server) {

  public TargetSample minus(TargetSample before) {
    return new TargetSample(client.minus(before.client), server.minus(before.server));
  }
}
