/**
 * Accumulo's continuous-ingest workload over securethrift's transports: the Thrift service's shared pieces; the
 * workload, client, server, benchmark, fault proxy and commands are in the sub-packages. Harness code, not published.
 */
package io.securethrift.ingest;
