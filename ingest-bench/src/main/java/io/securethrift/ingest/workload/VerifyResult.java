package io.securethrift.ingest.workload;

import java.util.List;

/**
 * Outcome of verifying a continuous-ingest table, with Accumulo's four counters. Rows are counted once each, however
 * many entries share them; corrupt entries are counted per entry and otherwise ignored.
 *
 * @param referenced rows that are defined and pointed at
 * @param unreferenced rows that are defined but nothing points at (list tails; normal)
 * @param undefined rows that something points at but that are missing (data loss)
 * @param corrupt entries whose checksum or layout is wrong (data damage)
 * @param undefinedExamples a few undefined rows, in ascending order, for error messages
 */
public record VerifyResult(long referenced, long unreferenced, long undefined, long corrupt,
    List<String> undefinedExamples) {

  /** Copies the examples so the result stays immutable. */
  public VerifyResult {
    undefinedExamples = List.copyOf(undefinedExamples);
  }

  /** Passed when nothing acknowledged was lost or damaged; unreferenced rows are expected and allowed. */
  public boolean passed() {
    return undefined == 0 && corrupt == 0;
  }
}
