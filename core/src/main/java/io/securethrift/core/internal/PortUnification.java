package io.securethrift.core.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.spi.HandshakeFailure;

/**
 * One server port's choice between TLS and plaintext ({@code securethrift.server.port.unification}): how a
 * connection's first byte is read, and whether plaintext is still served, which an operator turns off (and back on)
 * while the server runs. Both server models share it through their transport factory. Thread-safe.
 */
public final class PortUnification {
  /** Content type "handshake" (22), the first byte of the record every TLS handshake starts with. */
  private static final int TLS_HANDSHAKE = 0x16;

  private final boolean unified;
  private volatile boolean plaintextAccepted;

  private PortUnification(boolean unified) {
    this.unified = unified;
    this.plaintextAccepted = unified;
  }

  /**
   * The port of a server with {@code limits} (checked when the configuration was built); a client's side is never
   * unified.
   */
  public static PortUnification of(ServerLimits limits, boolean server) {
    return new PortUnification(server && limits.portUnification());
  }

  /** Whether the port reads each connection's first byte to choose its layers. */
  public boolean unified() {
    return unified;
  }

  /** Whether a plaintext connection is served now. */
  public boolean plaintextAccepted() {
    return plaintextAccepted;
  }

  /**
   * Serves plaintext connections from now on, or refuses them: connections already open carry on either way.
   *
   * @throws IllegalStateException if the port was not started with port unification
   */
  public void plaintextAccepted(boolean accepted) {
    if (!unified) {
      throw new IllegalStateException("this port serves one mode only; start it with "
          + ConfigProperty.SERVER_PORT_UNIFICATION.key() + "=true to switch plaintext on and off");
    }
    plaintextAccepted = accepted;
  }

  /**
   * Whether a connection that began with {@code firstByte} is TLS. Anything else is taken for a plaintext frame's
   * length, which the frame limit then checks: the configuration keeps every frame's length below 0x16 in its first
   * byte.
   */
  public static boolean startsTls(int firstByte) {
    return firstByte == TLS_HANDSHAKE;
  }

  /** What refuses a plaintext connection once plaintext is off. */
  public static HandshakeFailure refusal() {
    return new HandshakeFailure(AuthFailure.PLAINTEXT, "plaintext connection on a port switched to TLS only ("
        + ConfigProperty.SERVER_PORT_UNIFICATION.key() + "): configure the client for TLS, or set JMX attribute"
        + " PlaintextAccepted back to true while clients still move", null);
  }

  /** What a connection closed before its first byte is refused with. */
  public static HandshakeFailure closedBeforeFirstByte() {
    return new HandshakeFailure(AuthFailure.CLOSED_BEFORE_HANDSHAKE, "connection closed before its first byte",
        null);
  }
}
