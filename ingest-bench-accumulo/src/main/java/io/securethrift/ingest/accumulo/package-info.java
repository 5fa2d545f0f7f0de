/**
 * ingest-bench's {@code accumulo} backend (found by {@link java.util.ServiceLoader}): the continuous-ingest workload
 * through Accumulo's own client against a MiniAccumuloCluster per mode or an existing instance, and its fault runs.
 */
package io.securethrift.ingest.accumulo;
