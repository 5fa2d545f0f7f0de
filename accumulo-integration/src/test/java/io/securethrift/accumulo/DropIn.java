package io.securethrift.accumulo;

import java.nio.file.Path;

/** The Conscrypt drop-in as an operator installs it: the JVM option naming the shipped security file. */
final class DropIn {
  /** A cipher suite Conscrypt (BoringSSL) implements and JSSE does not: naming it tells the two engines apart. */
  static final String CONSCRYPT_ONLY_SUITE = "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256";

  private DropIn() {}

  static String jvmOption(Path securityFile) {
    return "-Djava.security.properties=" + securityFile;
  }
}
