package io.securethrift.tls;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.SecureStream;
import io.securethrift.core.spi.StreamLayer;
import io.securethrift.core.spi.TlsEngines;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * TLS over a connected TCP socket, for one role, through an {@link EngineSocket} on any engine. The handshake runs
 * explicitly in {@link #open}, on the caller's thread (a server's worker thread, never the accept thread), so core's
 * handshake deadline covers it; without the explicit call the handshake would happen lazily on the first read, under
 * the read timeout.
 */
final class TlsStreamLayer implements StreamLayer {
  private final SecurityMode mode;
  private final TlsSettings settings;
  private final Role role;
  private final ReloadingContext context;
  private final PeerIdentity.Issuer identities;

  TlsStreamLayer(SecurityMode mode, TlsSettings settings, Role role, ReloadingContext context,
      PeerIdentity.Issuer identities) {
    this.mode = mode;
    this.settings = settings;
    this.role = role;
    this.context = context;
    this.identities = identities;
  }

  @Override
  public SecureStream open(Socket socket, String host) throws IOException {
    InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
    SSLEngine engine = engine(role == Role.CLIENT ? host : null, socket.getPort());
    EngineSocket tls = new EngineSocket(socket, engine);
    String peer = role == Role.CLIENT ? host + ":" + socket.getPort() : String.valueOf(remote);
    boolean verified;
    HandshakeTrustManager.beginHandshake();
    try {
      tls.handshake();
    } catch (IOException e) {
      Optional<X509Certificate> rejected = HandshakeTrustManager.rejectedCertificate();
      throw role == Role.SERVER ? HandshakeErrors.serverFailure(e, settings, peer, rejected)
          : HandshakeErrors.explain(e, role, settings, peer, rejected);
    } finally {
      verified = HandshakeTrustManager.endHandshake();
    }
    PeerIdentity identity = identify(engine.getSession(), remote, verified);
    if (role == Role.SERVER && renegotiable(engine.getSession())) {
      engine.setEnableSessionCreation(false);
    }
    return new SecureStream(tls, identity);
  }

  /**
   * An engine for this layer's role, from the current context, with its parameters, session tickets on and, on a
   * server whose engine staples what it is handed, its OCSP response.
   */
  private SSLEngine engine(String host, int port) {
    return context.current().newEngine(role, host, port);
  }


  /**
   * The peer as a completed handshake's session describes it.
   *
   * @param verified whether a peer certificate chain was verified during the handshake: a session with a chain and no
   *     verification was resumed
   */
  private PeerIdentity identify(SSLSession session, InetSocketAddress remote, boolean verified) {
    List<X509Certificate> chain = peerCertificates(session);
    PeerIdentity.Builder identity = identities.builder(mode, remote)
        .tls(protocol(session), session.getCipherSuite(), !chain.isEmpty() && !verified, chain);
    if (!chain.isEmpty()) {
      PrincipalMapper.map(settings.principalMapping(), chain.get(0)).ifPresent(identity::principal);
    }
    serverCertificate(session, chain).ifPresent(c -> SharedAccess.tlsServerCertificate().record(identity, c));
    return identity.build();
  }

  /**
   * The certificate the connection's server presented, which SASL binds Kerberos to: the peer's first on a client,
   * this server's own on a server.
   */
  private Optional<X509Certificate> serverCertificate(SSLSession session, List<X509Certificate> peerChain) {
    if (role == Role.CLIENT) {
      return peerChain.stream().findFirst();
    }
    Certificate[] own = session.getLocalCertificates();
    return own == null || own.length == 0 || !(own[0] instanceof X509Certificate) ? Optional.empty()
        : Optional.of((X509Certificate) own[0]);
  }

  @Override
  public Optional<TlsEngines> engines() {
    return role == Role.SERVER ? Optional.of(new Engines()) : Optional.empty();
  }

  /** The same context, parameters and identity rules for servers that drive an {@link SSLEngine} themselves. */
  private final class Engines implements TlsEngines {
    @Override
    public SSLEngine serverEngine(InetSocketAddress remote) {
      return engine(remote.getHostString(), remote.getPort());
    }

    @Override
    public HandshakeRecord record() {
      return new Record();
    }

    @Override
    public PeerIdentity identify(SSLEngine engine, InetSocketAddress remote, HandshakeRecord record) {
      if (renegotiable(engine.getSession())) {
        engine.setEnableSessionCreation(false);
      }
      return TlsStreamLayer.this.identify(engine.getSession(), remote, ((Record) record).settled().verified);
    }

    @Override
    public IOException explain(Throwable failure, String peer, HandshakeRecord record) {
      IOException e = failure instanceof IOException ? (IOException) failure : new IOException(failure);
      Optional<X509Certificate> rejected = Optional.ofNullable(((Record) record).settled().rejected);
      return role == Role.SERVER ? HandshakeErrors.serverFailure(e, settings, peer, rejected)
          : HandshakeErrors.explain(e, role, settings, peer, rejected);
    }
  }

  /** What {@link HandshakeTrustManager} saw on the threads that stepped one engine's handshake. */
  private static final class Record implements TlsEngines.HandshakeRecord {
    private boolean verified;
    private X509Certificate rejected;

    @Override
    public void beforeStep() {
      HandshakeTrustManager.beginHandshake();
    }

    @Override
    public void afterStep() {
      HandshakeTrustManager.rejectedCertificate().ifPresent(leaf -> rejected = leaf);
      verified |= HandshakeTrustManager.endHandshake();
    }

    /**
     * This record with the current step's marks included: a server usually learns that the handshake ended while
     * still inside the step that verified the client's chain (TLS 1.3 sends Certificate and Finished together), before
     * {@link #afterStep()}. Taking the marks here resets them, so that later call adds nothing.
     */
    Record settled() {
      afterStep();
      return this;
    }
  }

  /**
   * Whether a client could renegotiate this server session, which a server then closes to new sessions: TLS 1.2 and
   * older (TLS 1.3 has no renegotiation). JSSE servers accept a client's renegotiation: a full handshake outside the
   * handshake deadline and the unauthenticated-connection limit, which may present another certificate than the one
   * the peer's identity was built from. With session creation off, JSSE ends a full renegotiation with a
   * handshake_failure alert; an abbreviated one, resuming this very session (same certificates, no signature), still
   * passes. Conscrypt (BoringSSL) refuses every renegotiation by itself.
   */
  private static boolean renegotiable(SSLSession session) {
    return !"TLSv1.3".equals(protocol(session));
  }

  /**
   * The negotiated version. A Conscrypt 2.9.0 server session reports "TLSv1.2" for TLS 1.3 connections; the TLS 1.3
   * suites exist only in TLS 1.3, so the suite settles it.
   */
  private static String protocol(SSLSession session) {
    return CipherSuites.isTls13(session.getCipherSuite()) ? "TLSv1.3" : session.getProtocol();
  }

  private static List<X509Certificate> peerCertificates(SSLSession session) {
    try {
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate certificate : session.getPeerCertificates()) {
        chain.add((X509Certificate) certificate);
      }
      return chain;
    } catch (SSLPeerUnverifiedException e) {
      return List.of();
    }
  }
}
