package io.securethrift.accumulo;

import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The Conscrypt drop-in as an operator installs it: the shipped security file, and the JVM option naming it. */
final class DropIn {
  /** A cipher suite Conscrypt (BoringSSL) implements and JSSE does not: naming it tells the two engines apart. */
  static final String CONSCRYPT_ONLY_SUITE = "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256";
  static final String FILE = "conscrypt-first.security";

  private DropIn() {}

  /** Copies the security file shipped in the jar into {@code dir}. */
  static Path securityFile(Path dir) throws IOException {
    try (InputStream in = ConscryptFirstProvider.class.getResourceAsStream(FILE)) {
      if (in == null) {
        throw new IOException(FILE + " is missing beside " + ConscryptFirstProvider.class.getName());
      }
      Path file = dir.resolve(FILE);
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    }
  }

  static String jvmOption(Path securityFile) {
    return "-Djava.security.properties=" + securityFile;
  }
}
