package io.securethrift.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The JDK key manager as Conscrypt contexts use it. Conscrypt's client handshake session reports the
 * {@code signature_algorithms} of the server's CertificateRequest where the JDK's PKIX key manager expects the
 * certificate signature algorithms the server accepts ({@code signature_algorithms_cert}). JSSE servers from Java 25
 * on, as TLS 1.3 intends, list {@code rsa_pkcs1_*} only in the latter, so a Conscrypt client whose certificate is
 * signed SHA256withRSA (as most are) found no acceptable certificate, sent none, and was refused with
 * {@code certificate_required}. securethrift's key store holds exactly one key, so there is nothing to choose between:
 * the client's alias is asked for without the connection, which keeps the local algorithm constraints (the
 * {@code java.security} file) and leaves judging the chain to the server, which does so anyway. Everything else is the
 * JDK's.
 */
final class ConscryptClientKeyManager extends X509ExtendedKeyManager {
  private final X509ExtendedKeyManager delegate;

  private ConscryptClientKeyManager(X509ExtendedKeyManager delegate) {
    this.delegate = delegate;
  }

  /** {@code managers} with each X.509 key manager wrapped. */
  static KeyManager[] wrap(KeyManager[] managers) {
    KeyManager[] wrapped = managers.clone();
    for (int i = 0; i < wrapped.length; i++) {
      if (wrapped[i] instanceof X509ExtendedKeyManager) {
        wrapped[i] = new ConscryptClientKeyManager((X509ExtendedKeyManager) wrapped[i]);
      }
    }
    return wrapped;
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return delegate.chooseClientAlias(keyTypes, issuers, null);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return delegate.chooseClientAlias(keyTypes, issuers, null);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return delegate.chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return delegate.chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return delegate.getClientAliases(keyType, issuers);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return delegate.getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return delegate.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return delegate.getPrivateKey(alias);
  }
}
