/**
 * {@code server-bench}: the non-blocking server against libthrift's {@code TThreadPoolServer}, each in its own JVM:
 * idle connections, pre-authentication floods, closed-loop calls and handshake rates beside openssl.
 */
package io.securethrift.bench.server;
