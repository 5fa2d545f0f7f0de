/**
 * The {@code ingest-bench}, {@code ingest-server} and {@code ingest-client} commands.
 */
package io.securethrift.ingest.cli;
