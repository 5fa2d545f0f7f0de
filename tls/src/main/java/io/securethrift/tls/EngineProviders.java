package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.TlsEngine;
import java.security.Provider;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.conscrypt.Conscrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a {@link TlsEngine} to the JCA provider that runs it. Conscrypt is asked for by name and never installed in
 * the JVM's provider list: inserted first it breaks JSSE's static initialisation, and as the default it would change
 * TLS for every other library in the process.
 */
final class EngineProviders {
  private static final Logger LOG = LoggerFactory.getLogger(EngineProviders.class);
  private static final AtomicBoolean AUTO_LOGGED = new AtomicBoolean();

  private EngineProviders() {}

  /** The provider to ask for TLS objects; empty means the JDK's own (SunJSSE). */
  static Optional<Provider> providerFor(TlsEngine engine) {
    switch (engine) {
      case JSSE:
        return Optional.empty();
      case CONSCRYPT:
        return Optional.of(Holder.conscrypt());
      case OPENSSL:
        // Netty's OpenSSL engine is no JCA provider: only a Netty pipeline building its own SslContext can use it.
        throw new ConfigException("securethrift.tls.engine", "openssl is Netty's"
            + " netty-tcnative engine, which securethrift applies to ZooKeeper client-port connections only; Thrift"
            + " transports run on jsse, conscrypt or auto");
      default:
        return auto();
    }
  }

  /** The engine {@code auto} stands for on this machine. */
  static TlsEngine resolve(TlsEngine engine) {
    return engine != TlsEngine.AUTO ? engine : Holder.AVAILABLE ? TlsEngine.CONSCRYPT : TlsEngine.JSSE;
  }

  private static Optional<Provider> auto() {
    if (AUTO_LOGGED.compareAndSet(false, true)) {
      if (Holder.AVAILABLE) {
        LOG.info("securethrift.tls.engine=auto: using Conscrypt {}", Conscrypt.version().major() + "."
            + Conscrypt.version().minor() + "." + Conscrypt.version().patch());
      } else {
        LOG.info("securethrift.tls.engine=auto: Conscrypt's native library does not load here ({}); using JSSE",
            Holder.UNAVAILABLE_REASON);
      }
    }
    return Holder.AVAILABLE ? Optional.of(Holder.PROVIDER) : Optional.empty();
  }

  /** Loads Conscrypt's native library at most once, on first use, and remembers why it failed. */
  private static final class Holder {
    private static final Provider PROVIDER;
    private static final boolean AVAILABLE;
    private static final String UNAVAILABLE_REASON;

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
      AVAILABLE = provider != null;
      UNAVAILABLE_REASON = reason;
    }

    static Provider conscrypt() {
      if (!AVAILABLE) {
        throw new ConfigException("securethrift.tls.engine", "conscrypt was asked for, but its"
            + " native library does not load on this machine (" + UNAVAILABLE_REASON + "); use jsse or auto");
      }
      return PROVIDER;
    }
  }
}
