package io.securethrift.zookeeper;

import io.netty.handler.ssl.OpenSsl;
import io.securethrift.core.spi.TlsEngineProvider;
import java.util.Optional;

/**
 * Engine {@code openssl}: Netty's OpenSSL engine (netty-tcnative, BoringSSL), which this module puts under
 * ZooKeeper's client port ({@link NettyOpenSsl}). It is no JCA provider, so securethrift's Thrift transports refuse
 * it, and {@code auto} never chooses it (no rank). It touches Netty's {@code OpenSsl} only when asked whether it
 * runs, because loading that class loads the native library.
 */
public final class NettyOpenSslEngine implements TlsEngineProvider {
  /** For the service loader. */
  public NettyOpenSslEngine() {}

  @Override
  public String token() {
    return "openssl";
  }

  @Override
  public String description() {
    return "Netty's netty-tcnative engine, for ZooKeeper client-port connections only";
  }

  @Override
  public Optional<String> unavailableReason() {
    return OpenSsl.isAvailable() ? Optional.empty()
        : Optional.of("Netty's OpenSSL engine does not load (" + OpenSsl.unavailabilityCause() + ")");
  }

  @Override
  public String fix() {
    return "put io.netty:netty-tcnative-boringssl-static, in the release your Netty was built with, on the class"
        + " path, or use jsse";
  }

  @Override
  public boolean offersSslContext() {
    return false;
  }
}
