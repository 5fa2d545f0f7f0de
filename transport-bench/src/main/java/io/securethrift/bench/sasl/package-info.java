/**
 * {@code sasl-bench}: JMH benchmarks of the SASL transports, and {@code sasl-bench privacy}, AES-GCM privacy beside
 * GSS {@code auth-conf} and TLS in paired rounds.
 */
package io.securethrift.bench.sasl;
