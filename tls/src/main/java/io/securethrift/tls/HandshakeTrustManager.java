package io.securethrift.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Wraps the JDK's PKIX trust manager for two reasons.
 *
 * <p>It records, per thread, that a peer certificate chain was verified. A TLS handshake runs on the thread that calls
 * {@code startHandshake()}, and a resumed session (TLS 1.2 session id or ticket, TLS 1.3 PSK) carries no Certificate
 * message, so "the peer sent certificates and none was verified during this handshake" is an exact test for
 * resumption on JSSE and Conscrypt alike, where session ids and creation times are not (TLS 1.3 ids are random,
 * Conscrypt's creation times have one-second resolution).
 *
 * <p>It records, per thread, the leaf certificate of a chain it rejected, so the handshake error can say whose
 * certificate it was (the engines' own messages do not).
 *
 * <p>It translates Conscrypt's TLS 1.3 key-exchange name {@code GENERIC} to the {@code UNKNOWN} the JDK's checker
 * expects, without which the JDK trust manager rejects every TLS 1.3 certificate under Conscrypt ("Unknown authType:
 * GENERIC"). Hostname verification stays with the JDK: it reads the endpoint identification algorithm and peer host
 * from the socket or engine on both engines.
 *
 * <p>When revocation is configured, a chain the JDK accepted is then checked by {@link RevocationCheck}, so both
 * engines check revocation the same way (Conscrypt hands this same trust manager its chains).
 *
 * <p>Under the FIPS profile it refuses a peer chain, once the JDK accepted it, that holds a key outside FIPS approval
 * ({@link FipsKeys}): the JDK's own limits ({@code jdk.certpath.disabledAlgorithms}) still admit 1024-bit RSA.
 */
final class HandshakeTrustManager extends X509ExtendedTrustManager {
  private static final ThreadLocal<Boolean> VERIFIED = ThreadLocal.withInitial(() -> Boolean.FALSE);
  private static final ThreadLocal<X509Certificate> REJECTED = new ThreadLocal<>();

  private final X509ExtendedTrustManager delegate;
  private final RevocationCheck revocation;
  private final boolean fips;

  /**
   * @param revocation the revocation check after the JDK's, or null for none
   * @param fips whether the FIPS profile's key checks apply to the peer's chain
   */
  HandshakeTrustManager(X509ExtendedTrustManager delegate, RevocationCheck revocation, boolean fips) {
    this.delegate = delegate;
    this.revocation = revocation;
    this.fips = fips;
  }

  /** Starts watching a handshake on this thread. */
  static void beginHandshake() {
    VERIFIED.set(Boolean.FALSE);
    REJECTED.remove();
  }

  /** The leaf of the peer chain rejected on this thread since {@link #beginHandshake()}, if one was. */
  static Optional<X509Certificate> rejectedCertificate() {
    return Optional.ofNullable(REJECTED.get());
  }

  /** Whether a peer chain was verified on this thread since {@link #beginHandshake()}; resets both marks. */
  static boolean endHandshake() {
    boolean verified = VERIFIED.get();
    VERIFIED.remove();
    REJECTED.remove();
    return verified;
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain, session(socket), () -> delegate.checkClientTrusted(chain, authType(authType), socket));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain, session(socket), () -> delegate.checkServerTrusted(chain, authType(authType), socket));
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain, engine == null ? null : engine.getHandshakeSession(),
        () -> delegate.checkClientTrusted(chain, authType(authType), engine));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain, engine == null ? null : engine.getHandshakeSession(),
        () -> delegate.checkServerTrusted(chain, authType(authType), engine));
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain, null, () -> delegate.checkClientTrusted(chain, authType(authType)));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain, null, () -> delegate.checkServerTrusted(chain, authType(authType)));
  }

  /** One of the JDK trust manager's checks. */
  private interface Check {
    void run() throws CertificateException;
  }

  private void check(X509Certificate[] chain, SSLSession session, Check check) throws CertificateException {
    try {
      check.run();
      if (fips && chain != null) {
        FipsKeys.checkPeer(chain);
      }
      if (revocation != null) {
        revocation.check(chain, session);
      }
    } catch (CertificateException e) {
      if (chain != null && chain.length > 0) {
        REJECTED.set(chain[0]);
      }
      throw e;
    }
    VERIFIED.set(Boolean.TRUE);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return delegate.getAcceptedIssuers();
  }

  private static SSLSession session(Socket socket) {
    return socket instanceof SSLSocket ? ((SSLSocket) socket).getHandshakeSession() : null;
  }

  private static String authType(String authType) {
    return "GENERIC".equals(authType) ? "UNKNOWN" : authType;
  }
}
