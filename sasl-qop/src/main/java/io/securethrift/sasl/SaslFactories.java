package io.securethrift.sasl;

import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslServerFactory;

/**
 * The JDK's SASL factories, looked up once per mechanism. {@code Sasl.createSaslClient} enumerates every security
 * provider on each call, which costs more than the rest of a cached-ticket GSSAPI handshake; the factory it finds is
 * stateless and thread-safe, so it is kept.
 */
final class SaslFactories {
  private static final Map<String, SaslClientFactory> CLIENTS = new ConcurrentHashMap<>();
  private static final Map<String, SaslServerFactory> SERVERS = new ConcurrentHashMap<>();

  private SaslFactories() {}

  static SaslClientFactory client(String mechanism) {
    return CLIENTS.computeIfAbsent(mechanism, m -> find(m, Sasl.getSaslClientFactories(),
        f -> f.getMechanismNames(null), "client"));
  }

  static SaslServerFactory server(String mechanism) {
    return SERVERS.computeIfAbsent(mechanism, m -> find(m, Sasl.getSaslServerFactories(),
        f -> f.getMechanismNames(null), "server"));
  }

  private static <F> F find(String mechanism, Enumeration<F> factories, Function<F, String[]> names, String side) {
    for (F factory : Collections.list(factories)) {
      for (String name : names.apply(factory)) {
        if (name.equals(mechanism)) {
          return factory;
        }
      }
    }
    throw new IllegalStateException("no SASL " + side + " implementation of " + mechanism
        + " is installed in this JVM");
  }
}
