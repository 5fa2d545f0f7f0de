package io.securethrift.core;

/** Which TLS implementation runs the handshake and record crypto. */
public enum TlsEngine {
  /** The JDK's own provider (SunJSSE). */
  JSSE("jsse"),
  /** Conscrypt (BoringSSL), asked for by name; never installed as the JVM's default provider. */
  CONSCRYPT("conscrypt"),
  /** Conscrypt when its native library loads on this machine, otherwise JSSE; the choice is logged once. */
  AUTO("auto"),
  /**
   * Netty's OpenSSL engine (netty-tcnative, BoringSSL), which works on Netty's direct buffers with no copies. Only
   * connections that Netty itself secures can use it: ZooKeeper's client port ({@code zookeeper.ssl.sslProvider}).
   * securethrift's Thrift transports take JCA providers and refuse it; netty-tcnative is the user's to add.
   */
  OPENSSL("openssl");

  private final String token;

  TlsEngine(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static TlsEngine parse(String key, String text) {
    return Tokens.parse(key, text, values(), TlsEngine::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
