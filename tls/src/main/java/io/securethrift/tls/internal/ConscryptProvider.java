package io.securethrift.tls.internal;

import java.security.Provider;
import java.util.Optional;
import org.conscrypt.Conscrypt;

/**
 * The JVM's one Conscrypt {@link Provider}, which every securethrift module uses (the TLS engine, the ZooKeeper and
 * Accumulo drop-ins, the benchmarks): each {@code Conscrypt.newProvider()} is a separate provider with its own
 * session caches, and code comparing providers would see two Conscrypts. Created on first use, because creating it
 * loads Conscrypt's native library. Not API: exported only to securethrift's own modules.
 */
public final class ConscryptProvider {
  private ConscryptProvider() {}

  /**
   * The provider.
   *
   * @throws IllegalStateException if Conscrypt's native library does not load here, with the reason
   */
  public static Provider instance() {
    if (Holder.PROVIDER == null) {
      throw new IllegalStateException("Conscrypt's native library does not load on this machine ("
          + Holder.UNAVAILABLE_REASON + ")");
    }
    return Holder.PROVIDER;
  }

  /** Empty when Conscrypt runs here; otherwise why its native library does not load. */
  public static Optional<String> unavailableReason() {
    return Optional.ofNullable(Holder.UNAVAILABLE_REASON);
  }

  /** Whether {@code provider} is this JVM's Conscrypt provider; loads nothing that is not loaded yet. */
  public static boolean is(Provider provider) {
    return provider.getName().equals("Conscrypt") && provider == instance();
  }

  /** Conscrypt's version, such as {@code 2.9.0}. */
  public static String version() {
    Conscrypt.Version v = Conscrypt.version();
    return v.major() + "." + v.minor() + "." + v.patch();
  }

  /** Loads the native library at most once and remembers why it failed. */
  private static final class Holder {
    static final Provider PROVIDER;
    static final String UNAVAILABLE_REASON;

    static {
      Provider provider = null;
      String reason = null;
      try {
        Conscrypt.checkAvailability();
        provider = Conscrypt.newProvider();
      } catch (Throwable e) {
        reason = String.valueOf(e.getMessage() != null ? e.getMessage() : e);
      }
      PROVIDER = provider;
      UNAVAILABLE_REASON = reason;
    }
  }
}
