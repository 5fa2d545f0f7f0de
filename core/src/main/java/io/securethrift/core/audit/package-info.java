/**
 * How a server's handshakes ended: {@link io.securethrift.core.audit.HandshakeAudit} writes one line per outcome on the
 * {@code securethrift.audit} logger and keeps the {@link io.securethrift.core.audit.AuthCounters}, which JMX shows as
 * a {@link io.securethrift.core.audit.ServerCountersMXBean}; {@link io.securethrift.core.audit.AuthFailure} names why a
 * handshake was refused. A server gets its audit from {@code ServerTransportFactory.audit()}; the line layout is the
 * configuration's {@code securethrift.audit.format}.
 */
package io.securethrift.core.audit;
