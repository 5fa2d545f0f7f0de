package io.securethrift.core;

import java.time.Duration;

/**
 * Time limits of a connection. The handshake limit bounds the whole TLS handshake and SASL negotiation together, not
 * each read, so a peer that trickles bytes cannot hold a server thread.
 *
 * @param connect how long a client waits for TCP to connect
 * @param read how long either side waits for the next bytes of a message; zero waits forever
 * @param handshake the deadline for TLS handshake plus SASL negotiation
 */
public record Timeouts(Duration connect, Duration read, Duration handshake) {}
