package io.securethrift.tls;

import io.securethrift.core.spi.TlsEngineContext;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/** The engines of a JCA {@link SSLContext} (jsse, conscrypt, a custom factory's), as every engine's are seen here. */
final class JcaEngineContext implements TlsEngineContext {
  private final SSLContext context;

  JcaEngineContext(SSLContext context) {
    this.context = context;
  }

  @Override
  public SSLEngine newEngine(String peerHost, int peerPort) {
    return context.createSSLEngine(peerHost, peerPort);
  }

  @Override
  public SSLParameters supportedParameters() {
    return context.getSupportedSSLParameters();
  }

  @Override
  public SSLParameters defaultParameters() {
    return context.getDefaultSSLParameters();
  }
}
