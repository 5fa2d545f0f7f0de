package io.securethrift.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;

/** The checks of the settings both test KDCs ({@link EmbeddedKdc}, {@link MitKdc}) take, and their free port. */
final class KdcSettings {
  private KdcSettings() {}

  /** A realm name (upper case by Kerberos convention): not blank, no '@', no whitespace. */
  static String realm(String realm) {
    if (realm == null || realm.isBlank() || realm.contains("@") || realm.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("realm must be a non-blank name without '@' or whitespace");
    }
    return realm;
  }

  /** A lifetime of at least one second, as a KDC counts them. */
  static Duration positiveSeconds(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.toSeconds() < 1) {
      throw new IllegalArgumentException(name + " must be at least one second");
    }
    return value;
  }

  /** A clock skew, zero or more. */
  static Duration clockSkew(Duration skew) {
    Objects.requireNonNull(skew, "clockSkew");
    if (skew.isNegative()) {
      throw new IllegalArgumentException("clockSkew must not be negative");
    }
    return skew;
  }

  /** A loopback port free now; another process may take it before the KDC binds it, so callers retry. */
  static int freePort(String host) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return socket.getLocalPort();
    }
  }
}
