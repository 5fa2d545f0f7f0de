package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import java.util.List;
import java.util.Map;

/**
 * Applies the {@code securethrift.*} keys found in an Accumulo file. They add what Accumulo cannot say (TLS engine,
 * hostname verification, timeouts, limits...) and never change what an Accumulo key says: a securethrift key for a
 * setting the file's Accumulo keys determine is an error, and a QOP preference list must keep Accumulo's level and
 * add only stronger ones. {@code securethrift.mode} is read by {@link AccumuloMapping}.
 */
final class LibraryKeys {
  static final String PREFIX = "securethrift.";

  private LibraryKeys() {}

  static void apply(SourceFile file, Dialect dialect, QualityOfProtection accumuloQop, String qopKey,
      SecurityConfig.Builder builder) {
    for (Map.Entry<String, String> e : file.entries().entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX) || key.equals(ConfigProperty.MODE.key())) {
        continue;
      }
      ConfigProperty property = ConfigProperty.forKey(key).orElseThrow(() -> file.error(key,
          "unknown setting; see docs/configuration.md for the keys securethrift reads"));
      List<String> owners = dialect.keysDetermining(property);
      if (property == ConfigProperty.SASL_QOP) {
        builder.qop(preferences(file, key, e.getValue(), accumuloQop, qopKey));
      } else if (!owners.isEmpty()) {
        throw file.error(key, "determined by Accumulo's " + String.join(" and ", owners) + " in "
            + dialect.description() + "; set that instead");
      } else {
        try {
          builder.set(key, e.getValue());
        } catch (ConfigException rejected) {
          throw file.rekey(key, rejected);
        }
      }
    }
  }

  private static List<QualityOfProtection> preferences(SourceFile file, String key, String value,
      QualityOfProtection accumuloQop, String qopKey) {
    List<QualityOfProtection> list;
    try {
      list = QualityOfProtection.parseList(key, value);
    } catch (ConfigException rejected) {
      throw file.rekey(key, rejected);
    }
    if (!list.contains(accumuloQop) || list.stream().anyMatch(q -> q.compareTo(accumuloQop) < 0)) {
      throw file.error(key, "'" + value + "' must list " + qopKey + "'s level " + accumuloQop
          + " and may add only stronger levels, so securethrift still talks to Accumulo and never accepts less");
    }
    return list;
  }
}
