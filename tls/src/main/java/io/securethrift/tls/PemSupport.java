package io.securethrift.tls;

import java.nio.file.Path;
import java.security.GeneralSecurityException;

/**
 * BouncyCastle, which {@link PemStore} reads PEM with and {@link OcspResponseCache} makes and reads OCSP messages with,
 * is an optional dependency: users with JKS or PKCS#12 stores and no OCSP cache never need it. A PEM store or an OCSP
 * cache without it on the class path fails with a message naming what to add, instead of a
 * {@link NoClassDefFoundError}.
 */
final class PemSupport {
  /** What to add, for every feature that needs BouncyCastle (PEM stores, {@link OcspResponseCache}). */
  static final String DEPENDENCY = "BouncyCastle, an optional dependency of securethrift-tls: add"
      + " org.bouncycastle:bcpkix-jdk18on (which brings bcprov-jdk18on and bcutil-jdk18on)";
  static final String MISSING = "is PEM, and reading PEM needs " + DEPENDENCY + ", or use a PKCS#12 or JKS store";
  /** tls requires BouncyCastle {@code static}: on the module path it is read only if something else resolves it. */
  static final String MODULE_PATH = "; on the module path, resolve it as well (--add-modules org.bouncycastle.pkix)";
  private static final String[] CLASSES = {"org.bouncycastle.openssl.PEMParser",
      "org.bouncycastle.jce.provider.BouncyCastleProvider"};

  private PemSupport() {}

  /** Whether BouncyCastle is on the class path (before this, nothing may touch {@link PemStore}). */
  static boolean available() {
    try {
      require(null);
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** Throws unless BouncyCastle can be loaded from this class's loader. */
  static void require(Path file) throws GeneralSecurityException {
    require(file, PemSupport.class.getClassLoader());
  }

  static void require(Path file, ClassLoader loader) throws GeneralSecurityException {
    require(file + " " + MISSING, loader);
  }

  /**
   * Throws unless BouncyCastle can be loaded from {@code loader}.
   *
   * @param missing the error without it: what needs it and {@link #DEPENDENCY}
   */
  static void require(String missing, ClassLoader loader) throws GeneralSecurityException {
    for (String name : CLASSES) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new GeneralSecurityException(missing + (PemSupport.class.getModule().isNamed() ? MODULE_PATH : ""));
      }
    }
  }
}
