/**
 * Accumulo's continuous-ingest workload over securethrift's transports: the Thrift service's shared pieces; the
 * workload, client, server, benchmark and fault proxy are in the sub-packages, and the commands in the cli module.
 * Harness code, not published.
 */
package io.securethrift.ingest;
