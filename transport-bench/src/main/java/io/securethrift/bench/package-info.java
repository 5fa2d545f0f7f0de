/**
 * The transport benchmarks' shared pieces: the echo fixture and connections, payloads and JMH options. Harness code,
 * not published.
 */
package io.securethrift.bench;
