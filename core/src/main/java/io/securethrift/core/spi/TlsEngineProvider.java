package io.securethrift.core.spi;

import java.security.Provider;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A TLS engine that a module contributes, chosen by its {@link #token()} in {@code securethrift.tls.engine} (the idea
 * of Netty's {@code SslProvider} and Kafka's {@code SslEngineFactory}). Found with {@link java.util.ServiceLoader}: a
 * module lists its implementation in {@code META-INF/services/io.securethrift.core.spi.TlsEngineProvider} and in its
 * {@code module-info} ({@code provides}); core contributes {@code jsse}, the TLS module {@code conscrypt}, the
 * ZooKeeper module {@code openssl}. A configuration can also carry an engine of its own
 * ({@link io.securethrift.core.SecurityConfig.Builder#tlsEngine(TlsEngineProvider)}).
 *
 * <p>When a configuration with TLS is built, its engine is resolved once ({@code auto} to the runnable engine of
 * lowest {@link #autoRank()}) and refused, naming the setting, {@link #unavailableReason()} and {@link #fix()}, if it
 * cannot run here; every user of the configuration then sees that engine
 * ({@link io.securethrift.core.TlsSettings#engineProvider()}). Implementations are stateless or hold one per-JVM
 * object (a JCA provider); only {@link #unavailableReason()} may load native code, and it is asked only of the engine
 * chosen or tried by {@code auto}.
 */
public interface TlsEngineProvider {
  /** The name users type: lower case, no blanks, not {@code auto}. */
  String token();

  /** What the engine is and where it runs, in a few words, for error messages and logs. */
  String description();

  /**
   * Its place in {@code auto}'s order: the runnable engine with the lowest rank is chosen; empty (the default) means
   * {@code auto} never chooses it. core's jsse ranks 100, the TLS module's conscrypt 10.
   */
  default OptionalInt autoRank() {
    return OptionalInt.empty();
  }

  /**
   * Empty (the default) when the engine runs in this JVM; otherwise why not (the library's own words, if it has
   * them).
   */
  default Optional<String> unavailableReason() {
    return Optional.empty();
  }

  /** What to do when it does not run: the artifact to add, or another engine to choose. */
  default String fix() {
    return "use jsse, or auto";
  }

  /**
   * Whether {@code SSLContext.getInstance("TLS", provider())} makes this engine's contexts (the default), which
   * securethrift's Thrift transports (the thread-pool and Netty servers, clients) need; false for an engine only Netty
   * pipelines that build their own {@code SslContext} can use ({@code openssl}).
   */
  default boolean offersSslContext() {
    return true;
  }

  /**
   * The JCA provider to ask for TLS objects when {@link #offersSslContext()}; empty (the default) means the JVM's
   * provider list (the JDK's SunJSSE), and always empty for an engine that offers none.
   */
  default Optional<Provider> provider() {
    return Optional.empty();
  }
}
