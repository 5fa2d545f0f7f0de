/**
 * The benchmark skeleton every harness shares, free of any workload: the one mode vocabulary
 * ({@link io.securethrift.harness.BenchMode}, {@link io.securethrift.harness.ModeSet}), the KDC and CA every mode runs
 * on ({@link io.securethrift.harness.BenchSecurity}, its files as child JVMs read them back:
 * {@link io.securethrift.harness.CertificateFiles}), turn accounting ({@link io.securethrift.harness.TurnLedger}),
 * paired overheads with bootstrap intervals and adaptive stopping ({@link io.securethrift.harness.PairedAnalysis},
 * {@link io.securethrift.harness.StoppingRule}), process sampling, and the result files with their charts,
 * {@code compare} and {@code docs} ({@link io.securethrift.harness.ResultsFile},
 * {@link io.securethrift.harness.ReportFiles}). Harness code, not published.
 */
package io.securethrift.harness;
