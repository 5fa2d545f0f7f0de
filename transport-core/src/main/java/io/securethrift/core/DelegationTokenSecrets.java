package io.securethrift.core;

import java.util.Optional;

/**
 * Server-side look-up of delegation token passwords for DIGEST-MD5, the role Accumulo's secret manager plays.
 * Implementations must be thread-safe: every connection's negotiation calls it.
 */
@FunctionalInterface
public interface DelegationTokenSecrets {
  /**
   * The password for a token identifier, or empty when the identifier is unknown or expired (the client is then
   * refused).
   */
  Optional<byte[]> passwordFor(byte[] identifier);
}
