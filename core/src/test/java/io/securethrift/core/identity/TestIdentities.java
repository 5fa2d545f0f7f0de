package io.securethrift.core.identity;

import io.securethrift.core.SecurityMode;
import java.net.InetSocketAddress;

/**
 * The identity issuer for tests, which drive layers directly or need an identity to check rules against. Test code
 * only: the library hands the issuer to nothing but the layers it loads.
 */
public final class TestIdentities {
  private TestIdentities() {}

  public static PeerIdentity.Issuer issuer() {
    return PeerIdentity.ISSUER;
  }

  public static PeerIdentity.Builder builder(SecurityMode mode, InetSocketAddress remoteAddress) {
    return PeerIdentity.ISSUER.builder(mode, remoteAddress);
  }
}
