package io.securethrift.tls;

import io.securethrift.core.internal.RuntimeModules;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import javax.crypto.KeyAgreement;

/**
 * Whether this JVM can do elliptic-curve cryptography, which EC keys and JSSE's ECDHE key exchange need, and what to do
 * when it cannot. Up to Java 21 the JDK's EC provider (SunEC) is the module {@code jdk.crypto.ec}, which jlink'd
 * images can leave out; without it PKCS#12 and JKS stores fail to read EC keys with an error that reads like a wrong
 * password, and JSSE silently offers only finite-field key exchange, which Conscrypt (BoringSSL) does not speak.
 * Asked each time rather than once, because an application may add a provider (BouncyCastle) that fills the gap.
 */
final class EcSupport {
  private EcSupport() {}

  static boolean available() {
    try {
      KeyFactory.getInstance("EC");
      KeyAgreement.getInstance("ECDH");
      return true;
    } catch (NoSuchAlgorithmException e) {
      return false;
    }
  }

  /** "this JVM has no EC provider: ..." with the fix. */
  static String missing() {
    if (Runtime.version().feature() >= 22) {
      return "this JVM has no EC provider: SunEC, part of java.base since Java 22, is not among the security"
          + " providers (security.provider.N in the java.security file)";
    }
    return "this JVM has no EC provider: " + RuntimeModules.missing("the JDK's EC provider, SunEC,", RuntimeModules.EC);
  }
}
