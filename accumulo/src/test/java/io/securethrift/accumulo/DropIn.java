package io.securethrift.accumulo;

import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import java.nio.file.Path;

/**
 * The Conscrypt drop-in as an operator installs it (the JVM option naming a DropInSecurityFile), and how the
 * tests tell that an Accumulo server runs it. Public for the tests of other Accumulo lines (package otherjvm).
 */
public final class DropIn {
  /** A cipher suite Conscrypt (BoringSSL) implements and JSSE does not: naming it tells the two engines apart. */
  public static final String CONSCRYPT_ONLY_SUITE = "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256";
  /**
   * {@code rpc.ssl.cipher.suites} for servers that must run on the drop-in: a JSSE server socket refuses to enable
   * {@link #CONSCRYPT_ONLY_SUITE} and the server then cannot listen at all, so a server that answers is Conscrypt's.
   * The other suites are ones JSSE clients offer, so a connection negotiates one of them.
   */
  public static final String SERVER_CIPHER_SUITES = String.join(",", CONSCRYPT_ONLY_SUITE,
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
  /**
   * Printed once on standard error by each server JVM (Accumulo 2.1 and 3.0) when the drop-in hands Thrift's server
   * socket factory a Conscrypt context.
   */
  public static final String THRIFT_ON_CONSCRYPT = ConscryptFirstProvider.NAME + ": SSLContext.TLSv1.2 is Conscrypt"
      + " 2.9.0 (requested by org.apache.thrift.transport.TSSLTransportFactory)";

  private DropIn() {}

  static String jvmOption(Path securityFile) {
    return "-Djava.security.properties=" + securityFile;
  }
}
