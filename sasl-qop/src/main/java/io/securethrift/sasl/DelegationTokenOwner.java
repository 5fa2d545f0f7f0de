package io.securethrift.sasl;

/**
 * Optional companion of {@link io.securethrift.core.DelegationTokenSecrets}: a secrets implementation that also
 * implements this interface tells the server who owns a token, and that owner (for Accumulo, the principal inside the
 * decoded {@code AuthenticationTokenIdentifier}) becomes the connection's principal. Without it the principal is the
 * Base64 token identifier the client presented, which is unique but not a user name. The identifier has already been
 * verified by the DIGEST-MD5 exchange when this is called.
 */
@FunctionalInterface
public interface DelegationTokenOwner {
  /** The principal that owns the token with this identifier. */
  String ownerOf(byte[] identifier);
}
