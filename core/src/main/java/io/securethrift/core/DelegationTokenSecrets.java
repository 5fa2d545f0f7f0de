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

  /**
   * The principal that owns the token with this identifier, which becomes the connection's principal (for Accumulo,
   * the principal inside the decoded {@code AuthenticationTokenIdentifier}). Called only after the DIGEST-MD5 exchange
   * has verified the identifier. The default, empty, makes the principal the Base64 token identifier the client
   * presented, which is unique but not a user name.
   */
  default Optional<String> ownerOf(byte[] identifier) {
    return Optional.empty();
  }
}
