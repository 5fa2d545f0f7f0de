/**
 * {@code ingest-bench}: the benchmark that runs the workload over every mode on a backend
 * ({@link io.securethrift.ingest.bench.IngestBackend}; {@code embedded} is here), in paired turns and rounds, with
 * its report and fault runs.
 */
package io.securethrift.ingest.bench;
