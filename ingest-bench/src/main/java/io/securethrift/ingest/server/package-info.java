/**
 * The ingest server: a Thrift service that keeps the written entries in a sorted table (and optionally a write-ahead
 * log), served by the thread-pool or the non-blocking server model.
 */
package io.securethrift.ingest.server;
