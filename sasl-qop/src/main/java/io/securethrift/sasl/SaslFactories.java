package io.securethrift.sasl;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SaslMechanism;
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
   * {@code asked} (why the configuration needs it) and, for GSSAPI on a trimmed runtime, names the missing module.
   */
  static SaslClientFactory client(SaslMechanism mechanism, String key, String asked) {
    SaslClientFactory factory = mechanism == SaslMechanism.GSSAPI ? GssapiFactory.INSTANCE
        : lookUpClient(mechanism.mechanismName());
    if (factory == null) {
      throw notInstalled(mechanism, "client", key, asked);
    }
    return factory;
  }

  /** Fails as {@link #client(SaslMechanism, String, String)} does unless this JVM has a server factory of it. */
  static void requireServer(SaslMechanism mechanism, String key, String asked) {
    if (mechanism != SaslMechanism.GSSAPI && lookUpServer(mechanism.mechanismName()) == null) {
      throw notInstalled(mechanism, "server", key, asked);
    }
  }

  /** The server factory of a mechanism {@link #requireServer} has checked, or that every JDK has (DIGEST-MD5). */
  static SaslServerFactory server(String mechanism) {
    SaslServerFactory factory = SaslMechanism.GSSAPI.mechanismName().equals(mechanism) ? GssapiFactory.INSTANCE
        : lookUpServer(mechanism);
    if (factory == null) {
      throw new IllegalStateException("no SASL server implementation of " + mechanism + " is installed in this JVM");
    }
    return factory;
  }

  private static SaslClientFactory lookUpClient(String mechanism) {
    return CLIENTS.computeIfAbsent(mechanism,
        m -> find(m, Sasl.getSaslClientFactories(), f -> f.getMechanismNames(null)));
  }

  private static SaslServerFactory lookUpServer(String mechanism) {
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

  private static ConfigException notInstalled(SaslMechanism mechanism, String side, String key, String asked) {
    return new ConfigException(key, asked + ", but this JVM has no SASL " + side + " implementation of "
        + mechanism.mechanismName());
  }
}
