package io.securethrift.accumulo;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tells which kind of Accumulo file a path holds: first by its standard name, else, for a properties file under another
 * name, by the keys it contains. A file without Accumulo keys (for example only {@code securethrift.*} keys) is not an
 * Accumulo file, so securethrift's own reader keeps it.
 */
final class FileKinds {
  private static final Map<String, Dialect> NAMES = Map.of(
      "accumulo-site.xml", Dialect.SITE_1_7,
      "client.conf", Dialect.CLIENT_1_7,
      "accumulo.properties", Dialect.SITE_2,
      "accumulo-client.properties", Dialect.CLIENT_2);
  /** Only Accumulo 2.x client files use these. */
  private static final List<String> CLIENT_2_PREFIXES = List.of("ssl.", "sasl.", "auth.");
  private static final Set<String> CLIENT_2_KEYS = Set.of("instance.zookeepers");
  /** Accumulo 1.x client files have these, site files never do. */
  private static final Set<String> CLIENT_1_KEYS = Set.of("instance.name", "kerberos.server.primary");
  /** Keys of a node's site file, which 1.x client files share in part. */
  private static final List<String> SITE_PREFIXES = List.of("instance.rpc.", "rpc.", "general.", "tserver.",
      "manager.", "master.", "gc.");
  private static final Set<String> SITE_KEYS = Set.of("instance.zookeeper.host", "instance.secret",
      "instance.volumes");

  private FileKinds() {}

  /** The kind a standard Accumulo file name stands for. */
  static Optional<Dialect> byName(String fileName) {
    return Optional.ofNullable(NAMES.get(fileName));
  }

  /** Whether the name is Accumulo 1.x's XML site file, the one kind that is not a properties file. */
  static boolean isXml(Dialect dialect) {
    return dialect == Dialect.SITE_1_7;
  }

  /**
   * The kind of a properties file with another name, from its keys: 2.x client keys win, then 1.x client keys; any
   * other Accumulo key means a 2.x site file. Empty when no key is Accumulo's.
   */
  static Optional<Dialect> byKeys(Set<String> keys) {
    if (keys.stream().anyMatch(k -> CLIENT_2_KEYS.contains(k) || CLIENT_2_PREFIXES.stream().anyMatch(k::startsWith))) {
      return Optional.of(Dialect.CLIENT_2);
    }
    if (keys.stream().anyMatch(CLIENT_1_KEYS::contains)) {
      return Optional.of(Dialect.CLIENT_1_7);
    }
    if (keys.stream().anyMatch(k -> SITE_KEYS.contains(k) || SITE_PREFIXES.stream().anyMatch(k::startsWith))) {
      return Optional.of(Dialect.SITE_2);
    }
    return Optional.empty();
  }
}
