package io.securethrift.tls.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * One role's Netty OpenSSL {@link SslContext}, built from securethrift's key and trust managers, so that the key
 * checks, chain and revocation checks, principal mapping and FIPS key rules are the ones JSSE and Conscrypt run.
 * Netty's non-reference-counted contexts ({@link SslProvider#OPENSSL}): a context replaced on reload is freed once
 * its last connection is gone, which no one here could tell. Session tickets are turned on for both roles: Netty sets
 * BoringSSL's {@code SSL_OP_NO_TICKET}, under which a server sends no TLS 1.3 ticket (its only way to resume TLS 1.3)
 * and a client offers none for TLS 1.2; BoringSSL then makes and rotates the ticket keys itself.
 */
final class NettyOpenSslContext implements TlsEngineContext {
  private final SslContext context;
  private final SSLParameters supported;
  private final SSLParameters defaults;
  private final boolean staples;

  private NettyOpenSslContext(SslContext context, boolean staples) {
    this.context = context;
    this.staples = staples;
    SSLEngine probe = context.newEngine(ByteBufAllocator.DEFAULT);
    try {
      this.supported = new SSLParameters(probe.getSupportedCipherSuites(), probe.getSupportedProtocols());
      this.defaults = probe.getSSLParameters();
    } finally {
      probe.closeOutbound();
      try {
        probe.closeInbound();
      } catch (SSLException e) {
        // An engine that never handshook has nothing to lose on close.
      }
    }
  }

  static TlsEngineContext create(Role role, X509ExtendedKeyManager keys, X509ExtendedTrustManager trust)
      throws SSLException {
    // A client asks for the server's stapled OCSP response (status_request), which the engine's session then hands
    // the trust manager as JSSE's and Conscrypt's do; the checker uses it instead of asking the responder. A server's
    // engines staple the response they are handed, and none when they are handed none.
    boolean ocsp = OpenSsl.isOcspSupported();
    SslContextBuilder builder = role == Role.SERVER ? SslContextBuilder.forServer(keys)
        : SslContextBuilder.forClient().keyManager(keys);
    // Host names are checked by the trust manager with the engine's parameters, which the TLS module sets per engine.
    SslContext context = builder.enableOcsp(ocsp).sslProvider(SslProvider.OPENSSL).trustManager(trust)
        .endpointIdentificationAlgorithm(null).build();
    ((OpenSslSessionContext) context.sessionContext()).setTicketKeys();
    return new NettyOpenSslContext(context, ocsp && role == Role.SERVER);
  }

  @Override
  public SSLEngine newEngine(String peerHost, int peerPort) {
    return context.newEngine(ByteBufAllocator.DEFAULT, peerHost, peerPort);
  }

  @Override
  public boolean staplesHandedResponses() {
    return staples;
  }

  @Override
  public void staple(SSLEngine engine, byte[] response) {
    if (!staples) {
      TlsEngineContext.super.staple(engine, response);
    }
    ((ReferenceCountedOpenSslEngine) engine).setOcspResponse(response);
  }

  @Override
  public SSLParameters supportedParameters() {
    return supported;
  }

  @Override
  public SSLParameters defaultParameters() {
    return defaults;
  }

  /** Empty when its servers can staple OCSP responses (BoringSSL's netty-tcnative); otherwise why not. */
  static Optional<String> staplingUnsupportedReason() {
    return OpenSsl.isOcspSupported() ? Optional.empty() : Optional.of("its netty-tcnative (OpenSSL "
        + OpenSsl.versionString() + ") cannot staple OCSP responses, which Netty supports only on BoringSSL; use "
        + NettyOpenSslEngine.NATIVE_ARTIFACT);
  }

  /** Empty when netty-tcnative loads here; otherwise Netty's reason. Loads the native library on first call. */
  static Optional<String> unavailableReason() {
    return OpenSsl.isAvailable() ? Optional.empty() : Optional.of(String.valueOf(OpenSsl.unavailabilityCause()));
  }
}
