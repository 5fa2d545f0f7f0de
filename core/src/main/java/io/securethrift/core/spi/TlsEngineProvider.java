package io.securethrift.core.spi;

import io.securethrift.core.spi.LayerProvider.Role;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Optional;
import java.util.OptionalInt;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A TLS engine that a module contributes, chosen by its {@link #token()} in {@code securethrift.tls.engine} (the idea
 * of Netty's {@code SslProvider} and Kafka's {@code SslEngineFactory}). Found with {@link java.util.ServiceLoader}: a
 * module lists its implementation in {@code META-INF/services/io.securethrift.core.spi.TlsEngineProvider} and in its
 * {@code module-info} ({@code provides}); core contributes {@code jsse}, the TLS module {@code conscrypt} and
 * {@code openssl}. A configuration can also carry an engine of its own
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
   * Whether {@code SSLContext.getInstance("TLS", provider())} makes this engine's contexts (the default); false for
   * an engine that is no JCA provider ({@code openssl}), whose contexts {@link #newContext} makes instead. Products
   * that take a JCA {@code SSLContext} (a custom {@link io.securethrift.core.SslContextFactory}, ZooKeeper's quorum)
   * need one.
   */
  default boolean offersSslContext() {
    return true;
  }

  /**
   * Empty when a server on this engine staples the OCSP response for its own certificate, as
   * {@code securethrift.tls.revocation.ocsp.stapling} asks; otherwise why not and what to do, which refuses the server
   * when its transport is created. The default: it cannot.
   */
  default Optional<String> serverStaplingRefusal() {
    return Optional.of(token() + " (" + description() + ") cannot staple OCSP responses in securethrift; use jsse");
  }

  /**
   * The JCA provider to ask for TLS objects when {@link #offersSslContext()}; empty (the default) means the JVM's
   * provider list (the JDK's SunJSSE), and always empty for an engine that offers none.
   */
  default Optional<Provider> provider() {
    return Optional.empty();
  }

  /**
   * For an engine that offers no {@code SSLContext}: engines for {@code role} presenting {@code keys} and deciding
   * every peer chain, and the host name its engines' parameters ask for, with {@code trust}. Each call makes a new
   * context (new material after a reload), with its own session cache; on a server, resumption is on.
   *
   * @param keys what this side presents; null for none (a client without a certificate)
   * @throws IOException or GeneralSecurityException if the engine cannot take this material
   * @throws UnsupportedOperationException for an engine that offers an {@code SSLContext} (the default)
   */
  default TlsEngineContext newContext(Role role, X509ExtendedKeyManager keys, X509ExtendedTrustManager trust)
      throws IOException, GeneralSecurityException {
    throw new UnsupportedOperationException(token() + " makes JCA SSLContexts; ask its provider()");
  }
}
