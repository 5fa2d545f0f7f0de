package io.securethrift.zkbench;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.ModeSet;
import java.util.List;

/**
 * The modes zk-bench compares: no TLS, and TLS with mutual authentication on an engine and protocol version.
 * Client-port TLS on Conscrypt is TLS 1.2 only in ZooKeeper 3.9.5, because ZooKeeper checks certificates with the
 * JDK's trust manager, which rejects Conscrypt's TLS 1.3 handshakes (see {@code ConscryptDefaultTls}). Engine openssl
 * is Netty's netty-tcnative, which ZooKeeper's Netty client and server take through {@code zookeeper.ssl.sslProvider};
 * quorum connections have no such setting, so it exists on the client port only. Conscrypt is chosen per JVM, the
 * only way into ZooKeeper's Netty client and server. Each mode's configuration is {@link BenchSecurity#config}'s:
 * two-way TLS on the mode's engine and version.
 */
final class ZkModes {
  static final ModeSet ALL = ModeSet.of("zk-bench", null, "none", "tls12-jsse", "tls13-jsse", "tls12-conscrypt",
      "tls12-openssl", "tls13-openssl");
  static final BenchMode NONE = ALL.parse("mode", "none");
  /** The modes of quorum TLS, which runs on JSSE whatever the engine (see {@link Shape}). */
  static final List<BenchMode> JSSE = List.of(NONE, ALL.parse("mode", "tls12-jsse"), ALL.parse("mode", "tls13-jsse"));

  private ZkModes() {}
}
