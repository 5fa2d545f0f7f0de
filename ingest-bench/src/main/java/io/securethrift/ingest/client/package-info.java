/**
 * The ingest client: batches written through securethrift's transports (or libthrift's), resent on a new
 * connection when a call fails, which is safe because continuous-ingest writes are idempotent.
 */
package io.securethrift.ingest.client;
