package io.securethrift.zkbench;

import io.securethrift.harness.BenchMode;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where zk-bench puts TLS. {@code client-tls}: one standalone server, TLS on the client port, no fsync (so the
 * crypto is not drowned by the disk). {@code quorum-tls}: the shape of the published ZooKeeper figure (+1.7 %), three
 * servers with TLS between them only, plaintext clients, fsync on every transaction log write
 * ({@code zookeeper.forceSync=yes}). {@code both}: three servers, TLS on the client port and between the servers,
 * fsync on.
 *
 * <p>Quorum TLS runs on JSSE whatever the engine (ZooKeeper's quorum listener needs an SSLSocketFactory method
 * Conscrypt lacks, and quorum sockets have no Netty provider setting for openssl; see
 * {@code ZooKeeperServerConfig}), so {@code quorum-tls} has no Conscrypt or openssl mode: it would measure JSSE again
 * under another name.
 */
enum Shape {
  CLIENT_TLS("client-tls", 1, true, false, false, ZkModes.ALL.all()),
  QUORUM_TLS("quorum-tls", 3, false, true, true, ZkModes.JSSE),
  BOTH("both", 3, true, true, true, ZkModes.ALL.all());

  private final String label;
  private final int servers;
  private final boolean clientTls;
  private final boolean quorumTls;
  private final boolean fsync;
  private final List<BenchMode> modes;

  Shape(String label, int servers, boolean clientTls, boolean quorumTls, boolean fsync, List<BenchMode> modes) {
    this.label = label;
    this.servers = servers;
    this.clientTls = clientTls;
    this.quorumTls = quorumTls;
    this.fsync = fsync;
    this.modes = modes;
  }

  String label() {
    return label;
  }

  int servers() {
    return servers;
  }

  /** Whether a mode's TLS is on the client port (else the clients connect in plaintext). */
  boolean clientTls() {
    return clientTls;
  }

  boolean quorumTls() {
    return quorumTls;
  }

  boolean fsync() {
    return fsync;
  }

  /** The modes this shape runs, {@code none} first (the baseline). */
  List<BenchMode> modes() {
    return modes;
  }

  /** One line for the report. */
  String describe() {
    return label + ": " + (servers == 1 ? "1 standalone server" : servers + " servers") + ", TLS "
        + (clientTls && quorumTls ? "on the client port and between servers" : clientTls ? "on the client port"
            : "between servers only, plaintext clients")
        + ", fsync " + (fsync ? "on (forceSync=yes)" : "off (forceSync=no)");
  }

  /** The shape a label names; an unknown label is refused with the accepted ones. */
  static Shape of(String label) {
    for (Shape s : values()) {
      if (s.label.equals(label)) {
        return s;
      }
    }
    throw new IllegalArgumentException("'" + label + "' is not a shape; accepted: "
        + Arrays.stream(values()).map(Shape::label).collect(Collectors.joining(", ")));
  }
}
