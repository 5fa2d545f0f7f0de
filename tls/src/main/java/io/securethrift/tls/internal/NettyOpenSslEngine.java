package io.securethrift.tls.internal;

import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import io.securethrift.core.spi.TlsEngineProvider;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Optional;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Engine {@code openssl}: Netty's OpenSSL engine (netty-tcnative, BoringSSL), on every securethrift TLS port (clients,
 * the thread-pool server, the Netty server, where it encrypts straight from Netty's direct buffers) and on
 * ZooKeeper's client port. It is no JCA provider: its contexts are Netty {@code SslContext}s, one per role
 * ({@link NettyOpenSslContext}). Netty and netty-tcnative are optional dependencies of this module, the user's to add;
 * {@code auto} never chooses it (no rank). Netty's classes are touched only once the engine is asked whether it runs,
 * because loading Netty's {@code OpenSsl} loads the native library.
 */
public final class NettyOpenSslEngine implements TlsEngineProvider {
  /** The artifact that carries the native library, named wherever it is missing. */
  public static final String NATIVE_ARTIFACT = "io.netty:netty-tcnative-boringssl-static";

  /** For the service loader. */
  public NettyOpenSslEngine() {}

  @Override
  public String token() {
    return "openssl";
  }

  @Override
  public String description() {
    return "Netty's OpenSSL engine (netty-tcnative, BoringSSL)";
  }

  @Override
  public Optional<String> unavailableReason() {
    // Asked of the class loader, so that a JVM without Netty never links NettyOpenSslContext.
    if (NettyOpenSslEngine.class.getClassLoader().getResource("io/netty/handler/ssl/OpenSsl.class") == null) {
      return Optional.of("Netty's io.netty:netty-handler is not on the class path");
    }
    return NettyOpenSslContext.unavailableReason().map(cause -> "Netty's OpenSSL engine does not load (" + cause
        + ")");
  }

  @Override
  public String fix() {
    return "put " + NATIVE_ARTIFACT + " (with the linux-x86_64 or your platform's classifier), in the release your"
        + " Netty was built with, and io.netty:netty-handler on the class path, or use jsse, conscrypt or auto";
  }

  /** Its servers staple the response the TLS module fetches for their certificate and hands each engine. */
  @Override
  public Optional<String> serverStaplingRefusal() {
    return NettyOpenSslContext.staplingUnsupportedReason();
  }

  @Override
  public boolean offersSslContext() {
    return false;
  }

  @Override
  public TlsEngineContext newContext(Role role, X509ExtendedKeyManager keys, X509ExtendedTrustManager trust)
      throws IOException, GeneralSecurityException {
    return NettyOpenSslContext.create(role, keys, trust);
  }
}
