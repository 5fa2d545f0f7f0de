package io.securethrift.core.internal;

import io.securethrift.core.spi.TlsEngineProvider;
import java.util.OptionalInt;

/**
 * Engine {@code jsse}, the JDK's own TLS: the JVM's provider list, which always runs. Core contributes it because it
 * needs no module, so {@code auto} always has an engine and {@code jsse} is a known token wherever core is.
 */
public final class JsseEngine implements TlsEngineProvider {
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
}
