package io.securethrift.core;

import java.util.Arrays;

/**
 * An Accumulo-style delegation token for DIGEST-MD5: the client sends Base64(identifier) as its user name and proves
 * it knows Base64(password). The password is a secret and never printed.
 */
public final class DelegationToken {
  private final byte[] identifier;
  private final byte[] password;

  public DelegationToken(byte[] identifier, byte[] password) {
    if (identifier.length == 0) {
      throw new IllegalArgumentException("delegation token identifier is empty");
    }
    if (password.length == 0) {
      throw new IllegalArgumentException("delegation token password is empty");
    }
    this.identifier = identifier.clone();
    this.password = password.clone();
  }

  public byte[] identifier() {
    return identifier.clone();
  }

  public byte[] password() {
    return password.clone();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DelegationToken)) {
      return false;
    }
    DelegationToken other = (DelegationToken) o;
    return Arrays.equals(identifier, other.identifier) && Arrays.equals(password, other.password);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(identifier);
  }

  @Override
  public String toString() {
    return "DelegationToken[identifier=" + identifier.length + " bytes, password=****]";
  }
}
