package io.securethrift.zkbench;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.TlsEngine;
import java.nio.file.Path;
import java.util.List;

/**
 * The security levels zk-bench compares: no TLS, and TLS with mutual authentication on an engine and protocol
 * version. Client-port TLS on Conscrypt is TLS 1.2 only in ZooKeeper 3.9.5, because ZooKeeper checks certificates
 * with the JDK's trust manager, which rejects Conscrypt's TLS 1.3 handshakes (see {@code ConscryptDefaultTls}).
 * Engine openssl is Netty's netty-tcnative, which ZooKeeper's Netty client and server take through
 * {@code zookeeper.ssl.sslProvider}; quorum connections have no such setting, so it exists on the client port only.
 * Conscrypt is chosen per JVM, the only way into ZooKeeper's Netty client and server.
 */
enum BenchMode {
  NONE("none", null, null),
  TLS12_JSSE("tls12-jsse", TlsEngine.JSSE, "TLSv1.2"),
  TLS13_JSSE("tls13-jsse", TlsEngine.JSSE, "TLSv1.3"),
  TLS12_CONSCRYPT("tls12-conscrypt", TlsEngine.CONSCRYPT, "TLSv1.2"),
  TLS12_OPENSSL("tls12-openssl", TlsEngine.OPENSSL, "TLSv1.2"),
  TLS13_OPENSSL("tls13-openssl", TlsEngine.OPENSSL, "TLSv1.3");

  private final String label;
  private final TlsEngine engine;
  private final String protocol;

  BenchMode(String label, TlsEngine engine, String protocol) {
    this.label = label;
    this.engine = engine;
    this.protocol = protocol;
  }

  String label() {
    return label;
  }

  boolean tls() {
    return engine != null;
  }

  TlsEngine engine() {
    return engine;
  }

  /** The configuration of one side: its key store, the shared trust store and the mode's engine and protocol. */
  SecurityConfig config(Path keyStore, Path trustStore, Secret password) {
    if (!tls()) {
      return SecurityConfig.builder().build();
    }
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine).tlsProtocols(List.of(protocol))
        .keyStore(keyStore, null, password).trustStore(trustStore, null, password).clientAuth(ClientAuth.NEED)
        .build();
  }
}
