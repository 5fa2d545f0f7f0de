package io.securethrift.zookeeper;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.OcspMode;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Writes the settings ZooKeeper's {@code X509Util} reads for one TLS channel. ZooKeeper uses the same key names for
 * every channel under different prefixes: {@code zookeeper.ssl.} for clients, {@code ssl.} for a server's client
 * port and {@code ssl.quorum.} for quorum connections in zoo.cfg, so one writer serves all three.
 */
final class TlsKeys {
  private TlsKeys() {}

  /** Key and trust stores, protocols, cipher suites and hostname verification, under {@code prefix}. */
  static void put(TlsSettings tls, String prefix, BiConsumer<String, String> sink) {
    tls.keyStore().ifPresent(store -> {
      if (store.alias().isPresent()) {
        throw new ConfigException(ConfigProperty.TLS_KEYSTORE_ALIAS.key(),
            "ZooKeeper 3.9 cannot choose a key entry by alias; give it a key store holding one key");
      }
      if (store.type() == StoreType.PEM) {
        requireKeyInSameFile(store);
      }
      putStore(store, prefix + "keyStore.", sink);
    });
    tls.trustStore().ifPresent(store -> putStore(store, prefix + "trustStore.", sink));
    // X509Util opens SSLContext.getInstance(protocol) with the first; the enabled list then narrows each socket.
    sink.accept(prefix + "protocol", tls.protocols().get(0));
    sink.accept(prefix + "enabledProtocols", String.join(",", tls.protocols()));
    sink.accept(prefix + "ciphersuites", String.join(",", cipherSuites(tls)));
    sink.accept(prefix + "hostnameVerification", Boolean.toString(tls.hostnameVerification()));
    putRevocation(tls, prefix, sink);
  }

  /**
   * OCSP as ZooKeeper's {@code ocsp} key. ZooKeeper 3.9 checks revocation in one way only: with {@code ocsp=true} its
   * trust manager asks each certificate's own responder (its AIA extension) and refuses a certificate whose status it
   * cannot determine, which is hard-fail (it also sets {@code ocsp.enable} JVM-wide). It reads no CRL files (its
   * {@code crl} key fetches CRLs from the certificates' distribution points instead), cannot fail softly and takes no
   * responder override, so each of those is refused rather than silently left out.
   */
  private static void putRevocation(TlsSettings tls, String prefix, BiConsumer<String, String> sink) {
    if (!tls.crlFiles().isEmpty()) {
      throw new ConfigException(ConfigProperty.TLS_REVOCATION_CRL_FILES.key(), "ZooKeeper 3.9 reads no CRL files (its"
          + " " + prefix + "crl fetches CRLs from the certificates' distribution points); leave it empty for"
          + " ZooKeeper and use " + ConfigProperty.TLS_REVOCATION_OCSP.key() + "=hard-fail");
    }
    if (tls.ocsp() == OcspMode.SOFT_FAIL) {
      throw new ConfigException(ConfigProperty.TLS_REVOCATION_OCSP.key(), "soft-fail: ZooKeeper 3.9's OCSP check ("
          + prefix + "ocsp) refuses a certificate whose status it cannot determine; use hard-fail, or off");
    }
    if (tls.ocspResponder().isPresent()) {
      throw new ConfigException(ConfigProperty.TLS_REVOCATION_OCSP_RESPONDER.key(), "ZooKeeper 3.9 asks the responder"
          + " each certificate names and takes no other; leave it empty for ZooKeeper");
    }
    sink.accept(prefix + "ocsp", Boolean.toString(tls.ocsp() == OcspMode.HARD_FAIL));
  }

  /**
   * The configured suites, or else the suites {@link CipherSuites} accepts for the enabled protocols, only
   * {@link CipherSuites#FIPS} under the FIPS profile. Never left to ZooKeeper: its default list is JSSE's and includes
   * CBC suites Conscrypt rejects, which fails every handshake before it starts.
   */
  static List<String> cipherSuites(TlsSettings tls) {
    if (!tls.cipherSuites().isEmpty()) {
      return tls.cipherSuites();
    }
    List<String> suites = new ArrayList<>();
    if (tls.protocols().contains("TLSv1.3")) {
      suites.addAll(CipherSuites.TLS13);
    }
    if (tls.protocols().contains("TLSv1.2")) {
      suites.addAll(CipherSuites.TLS12);
    }
    if (tls.fips()) {
      suites.retainAll(CipherSuites.FIPS);
    }
    return suites;
  }

  /**
   * ZooKeeper's own FIPS mode, {@code zookeeper.fips-mode} ({@code fips-mode} in zoo.cfg), set to true under
   * securethrift's FIPS profile so that no JVM-wide {@code -Dzookeeper.fips-mode=false} turns it off: ZooKeeper then
   * checks certificates with the JDK's trust manager instead of its own ({@code ZKTrustManager}), leaving hostname
   * verification to the JDK on client connections. Without the profile nothing is written and ZooKeeper's default
   * (true since 3.9) or the JVM's setting stands.
   */
  static void putFipsMode(TlsSettings tls, String key, BiConsumer<String, String> sink) {
    if (tls.fips()) {
      sink.accept(key, "true");
    }
  }

  /** Whether and how a server asks for client certificates, under {@code prefix}. */
  static void putClientAuth(TlsSettings tls, String prefix, BiConsumer<String, String> sink) {
    sink.accept(prefix + "clientAuth", tls.clientAuth().token());
  }

  private static void putStore(StoreLocation store, String prefix, BiConsumer<String, String> sink) {
    sink.accept(prefix + "location", store.path().toAbsolutePath().toString());
    sink.accept(prefix + "type", zooKeeperType(store.type()));
    store.password().ifPresent(secret -> sink.accept(prefix + "password", new String(secret.chars())));
  }

  /** The names ZooKeeper's {@code KeyStoreFileType} accepts. */
  static String zooKeeperType(StoreType type) {
    switch (type) {
      case JKS:
        return "JKS";
      case PKCS12:
        return "PKCS12";
      case PEM:
        return "PEM";
      default:
        throw new IllegalArgumentException("no ZooKeeper key store type for " + type);
    }
  }

  /**
   * securethrift accepts a PEM key beside its certificate file, but ZooKeeper's PEM loader reads the chain and the
   * key from one file; say so now rather than fail at the first handshake.
   */
  private static void requireKeyInSameFile(StoreLocation store) {
    try {
      if (!Files.readString(store.path(), StandardCharsets.US_ASCII).contains("PRIVATE KEY-----")) {
        throw new ConfigException(ConfigProperty.TLS_KEYSTORE_PATH.key(), store.path()
            + " holds no private key; ZooKeeper reads a PEM key store's key and certificate chain from one file,"
            + " so concatenate them");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + store.path(), e);
    }
  }
}
