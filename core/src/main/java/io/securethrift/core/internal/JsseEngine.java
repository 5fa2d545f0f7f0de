package io.securethrift.core.internal;

import io.securethrift.core.spi.TlsEngineProvider;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Engine {@code jsse}, the JDK's own TLS: the JVM's provider list, which always runs. Core contributes it because it
 * needs no module, so {@code auto} always has an engine and {@code jsse} is a known token wherever core is.
 */
public final class JsseEngine implements TlsEngineProvider {
  /** The JDK's system property that turns on stapling by its servers (default false). */
  public static final String SERVER_STAPLING = "jdk.tls.server.enableStatusRequestExtension";

  /** For the service loader. */
  public JsseEngine() {}

  @Override
  public String token() {
    return "jsse";
  }

  @Override
  public String description() {
    return "the JDK's SunJSSE";
  }

  @Override
  public OptionalInt autoRank() {
    // After the native engines (conscrypt ranks 10), which are faster where they load; before any test or user engine.
    return OptionalInt.of(100);
  }

  /**
   * The JDK staples by itself (it fetches and caches the response, {@code jdk.tls.stapling.*}), but only for contexts
   * created while the system property {@code jdk.tls.server.enableStatusRequestExtension} is true: each JDK context
   * reads it when it is created. Not set here: that would turn stapling on for every other server in the JVM too.
   */
  @Override
  public Optional<String> serverStaplingRefusal() {
    return Boolean.parseBoolean(System.getProperty(SERVER_STAPLING)) ? Optional.empty()
        : Optional.of("the JDK staples only when the server's JVM runs with -D" + SERVER_STAPLING + "=true (the JDK"
            + " reads it for each TLS context it creates), which this JVM does not set; start it with that option,"
            + " or set this to false");
  }
}
