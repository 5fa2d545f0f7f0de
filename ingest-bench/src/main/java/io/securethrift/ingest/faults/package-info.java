/**
 * A TCP proxy that injects the network faults of the fault runs (resets, stalls, truncation) between a client and
 * its server.
 */
package io.securethrift.ingest.faults;
