package io.securethrift.accumulo;

import io.securethrift.core.internal.TlsVersions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accumulo's protocol keys ({@code rpc.ssl.client.protocol}, {@code rpc.ssl.server.enabled.protocols}). Their 1.7
 * defaults name TLSv1 and TLSv1.1, which JDK 17 disables: such entries are dropped with a warning when a current
 * version is listed beside them, and rejected when nothing else is left.
 */
final class TlsProtocols {
  private static final Logger LOG = LoggerFactory.getLogger(TlsProtocols.class);
  static final List<String> DISABLED = List.of("TLSv1.1", "TLSv1");

  private TlsProtocols() {}

  /** The protocols a key names, checked for spelling only; {@code single} keys name exactly one. */
  static List<String> parse(SourceFile file, String key, String value, boolean single) {
    List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .collect(Collectors.toList());
    if (names.isEmpty()) {
      throw file.error(key, "empty; give " + (single ? TlsVersions.either() : TlsVersions.someOf()));
    }
    if (single && names.size() > 1) {
      throw file.error(key, "'" + value + "' names several protocols; this key takes exactly one: "
          + TlsVersions.either());
    }
    for (String name : names) {
      if (!TlsVersions.ACCEPTED.contains(name) && !DISABLED.contains(name)) {
        throw file.error(key, "'" + name + "' is not accepted; accepted values: " + TlsVersions.listed()
            + " (TLSv1.1 and TLSv1 are read but JDK 17 disables them)");
      }
    }
    return names;
  }

  /** The protocols of a key that JDK 17 can use; the disabled ones are dropped with a warning. */
  static List<String> usable(SourceFile file, String key, List<String> names, boolean explicit) {
    List<String> usable = new ArrayList<>(names);
    usable.removeAll(DISABLED);
    if (usable.isEmpty()) {
      throw file.error(key, "'" + String.join(",", names) + "'" + (explicit ? "" : " (the default)")
          + " names only protocols JDK 17 disables (jdk.tls.disabledAlgorithms); set TLSv1.2 or TLSv1.3");
    }
    if (usable.size() < names.size()) {
      List<String> dropped = new ArrayList<>(names);
      dropped.removeAll(usable);
      LOG.warn("{} in {}: ignoring {}, which JDK 17 disables; using {}", key, file.path(), dropped, usable);
    }
    return usable;
  }
}
