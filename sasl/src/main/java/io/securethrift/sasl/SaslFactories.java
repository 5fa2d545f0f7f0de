package io.securethrift.sasl;

import io.securethrift.core.ConfigException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslServerFactory;

/**
 * The SASL factories securethrift's transports use: its own GSSAPI mechanism ({@link GssapiFactory}), which runs on
 * every Java runtime, and the JDK's for the others, looked up once per mechanism. {@code Sasl.createSaslClient}
 * enumerates every security provider on each call, which costs more than the rest of a cached-ticket handshake; the
 * factory it finds is stateless and thread-safe, so it is kept.
 */
final class SaslFactories {
  private static final Map<String, SaslClientFactory> CLIENTS = new ConcurrentHashMap<>();
  private static final Map<String, SaslServerFactory> SERVERS = new ConcurrentHashMap<>();

  private SaslFactories() {}

  /**
   * The client factory of {@code mechanism}, or a {@link ConfigException} under {@code key} that starts with
   * {@code asked} (why the configuration needs it).
   */
  static SaslClientFactory client(MechanismSupport mechanism, String key, String asked) {
    SaslClientFactory factory = mechanism.clientFactory();
    if (factory == null) {
      throw notInstalled(mechanism, "client", key, asked);
    }
    return factory;
  }

  /** The server factory of {@code mechanism}, or a {@link ConfigException} as {@link #client} throws one. */
  static SaslServerFactory server(MechanismSupport mechanism, String key, String asked) {
    SaslServerFactory factory = mechanism.serverFactory();
    if (factory == null) {
      throw notInstalled(mechanism, "server", key, asked);
    }
    return factory;
  }

  /** The JDK's (or another provider's) client factory of {@code mechanism}, or null. */
  static SaslClientFactory lookUpClient(String mechanism) {
    return CLIENTS.computeIfAbsent(mechanism,
        m -> find(m, Sasl.getSaslClientFactories(), f -> f.getMechanismNames(null)));
  }

  /** The JDK's (or another provider's) server factory of {@code mechanism}, or null. */
  static SaslServerFactory lookUpServer(String mechanism) {
    return SERVERS.computeIfAbsent(mechanism,
        m -> find(m, Sasl.getSaslServerFactories(), f -> f.getMechanismNames(null)));
  }

  /** The first factory offering {@code mechanism}, or null (which {@code computeIfAbsent} does not store). */
  private static <F> F find(String mechanism, Enumeration<F> factories, Function<F, String[]> names) {
    for (F factory : Collections.list(factories)) {
      for (String name : names.apply(factory)) {
        if (name.equals(mechanism)) {
          return factory;
        }
      }
    }
    return null;
  }

  private static ConfigException notInstalled(MechanismSupport mechanism, String side, String key, String asked) {
    return new ConfigException(key, asked + ", but this JVM has no SASL " + side + " implementation of "
        + mechanism.name());
  }
}
