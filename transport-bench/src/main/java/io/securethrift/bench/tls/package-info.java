/**
 * {@code tls-bench}: JMH benchmarks of echo throughput and handshakes on JSSE and Conscrypt.
 */
package io.securethrift.bench.tls;
