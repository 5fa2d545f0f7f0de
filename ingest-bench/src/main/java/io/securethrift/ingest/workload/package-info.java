/**
 * The continuous-ingest workload itself, byte for byte as Accumulo's {@code ContinuousIngest} writes it and
 * {@code ContinuousVerify} checks it: entries, their generator, batching and verification.
 */
package io.securethrift.ingest.workload;
