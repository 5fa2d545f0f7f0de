package io.securethrift.tls;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Selects the {@link SslContextFactory} that TLS layers created from now on use. Transport factories are found by
 * Java's service loader and take only a {@code SecurityConfig}, so the choice is made here, in code, rather than by a
 * class name in a property file.
 */
public final class SslContextFactories {
  private static final AtomicReference<SslContextFactory> SELECTED =
      new AtomicReference<>(StandardSslContextFactory.INSTANCE);

  private SslContextFactories() {}

  /** The factory new layers use: {@link StandardSslContextFactory} unless {@link #use} chose another. */
  public static SslContextFactory selected() {
    return SELECTED.get();
  }

  /**
   * Makes {@code factory} the one new layers use, until the returned handle is closed, which restores the previous
   * choice. Layers already made keep theirs.
   */
  public static Selection use(SslContextFactory factory) {
    SslContextFactory previous = SELECTED.getAndSet(Objects.requireNonNull(factory));
    return () -> SELECTED.set(previous);
  }

  /** Undoes a {@link #use} call. */
  @FunctionalInterface
  public interface Selection extends AutoCloseable {
    @Override
    void close();
  }
}
