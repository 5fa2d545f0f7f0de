/**
 * {@code peer-bench}: securethrift beside libthrift's own transports as Accumulo wires them, each pairing of client
 * and server in its own JVM, in paired rounds.
 */
package io.securethrift.bench.peer;
