package io.securethrift.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The key manager of every context: the one key of the configured key store and its chain, decoded once by
 * {@link StoreLoader} and held in memory, offered whenever the engine asks for a key of its type.
 *
 * <p>The JDK's PKIX key manager, used before, fetches its entry from the key store again on every handshake: it names
 * each chosen entry with a fresh number, so its own entry cache never hits, and a PKCS#12 entry is decrypted each time
 * (PBKDF2, 10,000 HMAC-SHA256 rounds by default). On the 2-core CI machine that was 20–76 ms of CPU per full handshake
 * on the side presenting a certificate, more than the RSA signature itself, and a new key object every time.
 *
 * <p>It also decides for Conscrypt clients what the JDK's manager got wrong for them: Conscrypt's client handshake
 * session reports the {@code signature_algorithms} of the server's CertificateRequest where the JDK's manager expects
 * the certificate signature algorithms the server accepts ({@code signature_algorithms_cert}); JSSE servers from Java
 * 25 on, as TLS 1.3 intends, list {@code rsa_pkcs1_*} only in the latter, so a Conscrypt client whose certificate is
 * signed SHA256withRSA found no acceptable certificate, sent none, and was refused. With one key there is nothing to
 * choose: the certificate is offered whenever its key type is asked for and, when the peer names the certificate
 * authorities it accepts, one of them issued a certificate of the chain (as the JDK's manager decides); the peer judges
 * the signature algorithms of the chain anyway, and says why if it refuses it.
 */
final class SingleKeyManager extends X509ExtendedKeyManager {
  private final String alias;
  private final PrivateKey key;
  private final X509Certificate[] chain;

  SingleKeyManager(String alias, PrivateKey key, X509Certificate[] chain) {
    this.alias = alias;
    this.key = key;
    this.chain = chain.clone();
  }

  /** The key store entry the key came from. */
  String alias() {
    return alias;
  }

  /** The certificate presented, the first of the chain. */
  X509Certificate leaf() {
    return chain[0];
  }

  /**
   * The alias when the engine asks for a key of this key's algorithm ("RSA", "EC", "RSASSA-PSS", ...) issued by one of
   * {@code issuers} (any issuer when null or empty).
   */
  private String aliasFor(String keyType, Principal[] issuers) {
    return key.getAlgorithm().equals(keyType) && issuedByOneOf(issuers) ? alias : null;
  }

  private String aliasForAny(String[] keyTypes, Principal[] issuers) {
    if (keyTypes != null) {
      for (String keyType : keyTypes) {
        if (aliasFor(keyType, issuers) != null) {
          return alias;
        }
      }
    }
    return null;
  }

  private boolean issuedByOneOf(Principal[] issuers) {
    if (issuers == null || issuers.length == 0) {
      return true;
    }
    List<Principal> accepted = Arrays.asList(issuers);
    for (X509Certificate certificate : chain) {
      if (accepted.contains(certificate.getIssuerX500Principal())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return aliasForAny(keyTypes, issuers);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return aliasForAny(keyTypes, issuers);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return aliasFor(keyType, issuers);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyType, issuers);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return aliasFor(keyType, issuers) == null ? null : new String[] {alias};
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return getClientAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return this.alias.equals(alias) ? chain.clone() : null;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return this.alias.equals(alias) ? key : null;
  }
}
