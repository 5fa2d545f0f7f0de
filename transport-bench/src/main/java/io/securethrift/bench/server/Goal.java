package io.securethrift.bench.server;

/**
 * One goal of issue #12 checked against this run's figures.
 *
 * @param scenario the scenario it belongs to
 * @param goal what was asked
 * @param measured what this run measured, in words and numbers
 * @param met whether the figures meet it
 */
record Goal(String scenario, String goal, String measured, boolean met) {
  String verdict() {
    return met ? "met" : "MISSED";
  }
}
