package io.securethrift.core;

import io.securethrift.core.spi.TlsEngineProvider;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS engines contributed in this JVM, and the one place that turns an engine's name into the engine that runs:
 * {@code auto} is resolved here, once per JVM and logged once, and an engine that cannot run is refused here.
 */
final class TlsEngineCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(TlsEngineCatalog.class);

  private TlsEngineCatalog() {}

  /** Whether {@code token} is {@code auto} or a contributed engine's. */
  static boolean isKnown(String token) {
    return TlsEngine.AUTO.token().equals(token) || Contributed.BY_TOKEN.containsKey(token);
  }

  /** {@code auto}, then every contributed engine's token in alphabetical order, for error messages. */
  private static String knownTokens() {
    StringJoiner tokens = new StringJoiner(", ").add(TlsEngine.AUTO.token());
    Contributed.BY_TOKEN.keySet().forEach(tokens::add);
    return tokens.toString();
  }

  /**
   * The engine that runs for a configuration naming {@code engine}, or the configuration's own {@code supplied} one.
   *
   * @throws ConfigException naming {@code securethrift.tls.engine} for an unknown name, or an engine that cannot run
   *     here, with the reason and the fix
   */
  static TlsEngineProvider resolve(TlsEngine engine, Optional<TlsEngineProvider> supplied) {
    if (supplied.isPresent()) {
      return runnable(supplied.get());
    }
    if (engine.isAuto()) {
      return Auto.CHOICE;
    }
    TlsEngineProvider named = Contributed.BY_TOKEN.get(engine.token());
    if (named == null) {
      throw unknown(ConfigProperty.TLS_ENGINE.key(), engine.token());
    }
    return runnable(named);
  }

  /** The error for a name no module contributes: {@code key} is the setting it came from. */
  static ConfigException unknown(String key, String text) {
    return new ConfigException(key, "'" + text + "' is not accepted; accepted values: " + knownTokens() + " (an"
        + " engine is contributed by the module that has it: conscrypt and openssl by"
        + " securethrift-tls)");
  }

  private static TlsEngineProvider runnable(TlsEngineProvider engine) {
    Optional<String> reason = engine.unavailableReason();
    if (reason.isPresent()) {
      throw new ConfigException(ConfigProperty.TLS_ENGINE.key(), engine.token() + " (" + engine.description()
          + ") does not run in this JVM: " + reason.get() + "; " + engine.fix());
    }
    return engine;
  }

  /** Loaded on first use, so that a JVM that never reads an engine setting loads no engine. */
  private static final class Contributed {
    static final Map<String, TlsEngineProvider> BY_TOKEN = load();

    private static Map<String, TlsEngineProvider> load() {
      Map<String, TlsEngineProvider> engines = new TreeMap<>();
      for (TlsEngineProvider engine : ServiceLoader.load(TlsEngineProvider.class,
          TlsEngineProvider.class.getClassLoader())) {
        TlsEngineProvider first = engines.putIfAbsent(engine.token(), engine);
        if (first != null) {
          LOG.warn("two TLS engines are contributed as '{}': {} and {}; using the first", engine.token(),
              first.getClass().getName(), engine.getClass().getName());
        }
      }
      return engines;
    }
  }

  /** {@code auto}'s choice: made on first use, because trying an engine may load its native library. */
  private static final class Auto {
    static final TlsEngineProvider CHOICE = choose();

    private static TlsEngineProvider choose() {
      List<TlsEngineProvider> ranked = Contributed.BY_TOKEN.values().stream()
          .filter(e -> e.autoRank().isPresent())
          .sorted(Comparator.comparingInt(e -> e.autoRank().getAsInt())).collect(Collectors.toList());
      StringJoiner skipped = new StringJoiner("; ");
      for (TlsEngineProvider engine : ranked) {
        Optional<String> reason = engine.unavailableReason();
        if (reason.isEmpty()) {
          LOG.info("{}=auto: using {} ({}){}", ConfigProperty.TLS_ENGINE.key(), engine.token(), engine.description(),
              skipped.length() == 0 ? "" : "; not " + skipped);
          return engine;
        }
        skipped.add(engine.token() + ", which does not run here (" + reason.get() + ")");
      }
      // Core contributes jsse, which always runs; only a class path without core's own service file gets here.
      throw new IllegalStateException("no TLS engine runs in this JVM: " + skipped);
    }
  }
}
