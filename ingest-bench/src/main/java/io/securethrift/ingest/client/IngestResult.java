package io.securethrift.ingest.client;

/**
 * What one ingest run measured on the client.
 *
 * @param entries entries written
 * @param bytes bytes of key and value written
 * @param elapsedNanos from the first entry to the last flush returning, connection set-up included
 * @param clientCpuNanos CPU time the client process used meanwhile
 */
public record IngestResult(long entries, long bytes, long elapsedNanos, long clientCpuNanos) {}
