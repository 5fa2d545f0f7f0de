package io.securethrift.tls;

import io.securethrift.core.spi.TlsEngineProvider;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A TLS engine these tests contribute that never runs, ranked first for {@code auto}: {@code auto} must pass over it,
 * and naming it must be refused with its reason and fix. Also given in code as an engine that makes no JCA context.
 */
public final class NeverRunsTestEngine implements TlsEngineProvider {
  static final String TOKEN = "never-runs-test";
  private final boolean runs;

  /** For the service loader: the engine that does not run. */
  public NeverRunsTestEngine() {
    this(false);
  }

  /** {@code runs}: an engine that runs but, like Netty's OpenSSL engine, makes no JCA context. */
  NeverRunsTestEngine(boolean runs) {
    this.runs = runs;
  }

  @Override
  public String token() {
    return TOKEN;
  }

  @Override
  public String description() {
    return "a test engine for Netty pipelines only";
  }

  @Override
  public OptionalInt autoRank() {
    return OptionalInt.of(1);
  }

  @Override
  public Optional<String> unavailableReason() {
    return runs ? Optional.empty() : Optional.of("its native library is a test's fiction");
  }

  @Override
  public boolean offersSslContext() {
    return false;
  }
}
