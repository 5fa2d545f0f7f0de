package io.securethrift.core;

import java.time.Duration;

/**
 * The time limits of a connection, part of a {@link SecurityConfig}. The handshake limit bounds the whole TLS
 * handshake and SASL negotiation together, not each read, so a peer that trickles bytes cannot hold a server thread.
 * Immutable; only {@link SecurityConfig.Builder#build()} creates one, after checking every value.
 *
 * <p>Defaults: {@linkplain #connect() connect} 10s ({@link ConfigProperty#TIMEOUT_CONNECT}), {@linkplain #read()
 * read} 120s ({@link ConfigProperty#TIMEOUT_READ}), {@linkplain #handshake() handshake} 10s
 * ({@link ConfigProperty#TIMEOUT_HANDSHAKE}), client connection age none
 * ({@link ConfigProperty#CLIENT_CONNECTION_MAX_AGE}).
 */
public final class Timeouts {
  private final Duration connect;
  private final Duration read;
  private final Duration handshake;
  private final Duration clientConnectionMaxAge;

  Timeouts(Duration connect, Duration read, Duration handshake, Duration clientConnectionMaxAge) {
    this.connect = connect;
    this.read = read;
    this.handshake = handshake;
    this.clientConnectionMaxAge = clientConnectionMaxAge;
  }

  /** How long a client waits for TCP to connect; greater than zero. */
  public Duration connect() {
    return connect;
  }

  /** How long either side waits for the next bytes of a message; zero waits forever. */
  public Duration read() {
    return read;
  }

  /** The deadline for TLS handshake plus SASL negotiation; greater than zero. */
  public Duration handshake() {
    return handshake;
  }

  /**
   * How long a client uses a connection before its next call opens a new one
   * ({@link ConfigProperty#CLIENT_CONNECTION_MAX_AGE}); zero keeps it for any age.
   */
  public Duration clientConnectionMaxAge() {
    return clientConnectionMaxAge;
  }
}
