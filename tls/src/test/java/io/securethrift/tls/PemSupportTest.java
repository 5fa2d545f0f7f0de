package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import org.junit.jupiter.api.Test;

/** BouncyCastle is optional: without it a PEM store names the dependency to add. */
class PemSupportTest {
  @Test
  void withoutBouncyCastleAPemStoreNamesTheDependencyToAdd() {
    Path file = Path.of("/etc/ssl/server.crt");
    ClassLoader withoutBouncyCastle = ClassLoader.getPlatformClassLoader();
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> PemSupport.require(file, withoutBouncyCastle));
    assertEquals("/etc/ssl/server.crt is PEM, and reading PEM needs BouncyCastle, an optional dependency of"
        + " securethrift-tls: add org.bouncycastle:bcpkix-jdk18on (which brings bcprov-jdk18on and"
        + " bcutil-jdk18on), or use a PKCS#12 or JKS store", e.getMessage());
  }

  @Test
  void withBouncyCastlePemIsRead() {
    assertDoesNotThrow(() -> PemSupport.require(Path.of("server.crt")));
  }
}
