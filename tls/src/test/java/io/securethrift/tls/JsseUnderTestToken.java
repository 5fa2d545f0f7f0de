package io.securethrift.tls;

import io.securethrift.core.spi.TlsEngineProvider;
import java.security.Provider;
import java.security.Security;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TLS engine these tests contribute through {@code META-INF/services}, as a module would: the JDK's SunJSSE under
 * the token {@code jsse-test}, never chosen by {@code auto}. It counts the contexts asked of it.
 */
public final class JsseUnderTestToken implements TlsEngineProvider {
  static final String TOKEN = "jsse-test";
  static final AtomicInteger PROVIDER_REQUESTS = new AtomicInteger();

  /** For the service loader. */
  public JsseUnderTestToken() {}

  @Override
  public String token() {
    return TOKEN;
  }

  @Override
  public String description() {
    return "SunJSSE under a test's token";
  }

  @Override
  public Optional<Provider> provider() {
    PROVIDER_REQUESTS.incrementAndGet();
    return Optional.of(Security.getProvider("SunJSSE"));
  }
}
