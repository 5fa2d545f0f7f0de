package io.securethrift.zookeeper.bench;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.TlsEngine;
import java.nio.file.Path;
import java.util.List;

/**
 * The modes zk-bench compares. Both TLS modes run TLS 1.2 with mutual authentication, because client-port TLS on
 * Conscrypt is TLS 1.2 only in ZooKeeper 3.9.5 (see {@code ConscryptDefaultTls}) and the engine must be the only
 * difference between them.
 */
enum BenchMode {
  NONE("none", null),
  TLS_JSSE("tls-jsse", TlsEngine.JSSE),
  TLS_CONSCRYPT("tls-conscrypt", TlsEngine.CONSCRYPT);

  private final String label;
  private final TlsEngine engine;

  BenchMode(String label, TlsEngine engine) {
    this.label = label;
    this.engine = engine;
  }

  String label() {
    return label;
  }

  boolean tls() {
    return engine != null;
  }

  /** The configuration of one side: its key store, the shared trust store and the mode's engine. */
  SecurityConfig config(Path keyStore, Path trustStore, Secret password) {
    if (!tls()) {
      return SecurityConfig.builder().build();
    }
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine).tlsProtocols(List.of("TLSv1.2"))
        .keyStore(keyStore, null, password).trustStore(trustStore, null, password).clientAuth(ClientAuth.NEED)
        .build();
  }
}
