/**
 * Secured Thrift transports for a {@link io.securethrift.core.SecurityConfig}: a client opens a connection with
 * {@link io.securethrift.core.transport.ClientTransportFactory#open}, a server listens and wraps accepted connections
 * with {@link io.securethrift.core.transport.ServerTransportFactory} (for libthrift's {@code TThreadPoolServer}, or as
 * the seam of a server that does its own I/O). Both run the same layers: plain framed TCP here, TLS and SASL from the
 * modules that provide them. {@link io.securethrift.core.transport.SecuredTransport} is an open connection and its
 * peer's identity; the rest of the package is its implementation.
 */
package io.securethrift.core.transport;
