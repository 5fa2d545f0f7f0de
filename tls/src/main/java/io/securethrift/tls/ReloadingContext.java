package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.IdentityChange;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one context of a configuration and role (a JCA {@link SSLContext}, or an engine's own,
 * {@link TlsEngineContext}), cached so every connection shares its session cache, and
 * replaced when the key, trust or CRL files change. The files are checked at most once per reload interval, on the
 * thread of a new handshake, by hashing their content (a rotated certificate often has the same size, and copies may
 * keep the modification time). Every read opens the configured path, following symbolic links anew, so a Kubernetes
 * secret volume's atomic {@code ..data} swap is seen like any other change. Polling alone is enough: a directory
 * watcher sees that swap only as events on {@code ..data} and on timestamped directories, never on the configured
 * file, which is why ZooKeeper's watcher and, until HBASE-28931, HBase's missed it.
 *
 * <p>A change is taken only when the files read the same before and after the new material was loaded from them, so
 * a certificate is never paired with a key or trust store of another moment; otherwise the next check reads them
 * again. Open connections keep the context they were made with. A change that cannot be loaded (half-written files, a
 * key that does not match its certificate yet) is logged once, the old material stays in use, and every check loads
 * the files again until they load. A key store whose certificate names another identity (subject, set of alternative
 * names, first DNS, e-mail or URI name) than the one in use is refused, logged once and not tried again until the
 * files change, unless {@code securethrift.tls.reload.identity.change} is {@code allow}; trust store changes are
 * always taken. On a server that staples its certificate's OCSP response itself, new material is taken once its
 * response has been fetched in the background (or the fetch has failed); handshakes do not wait for the responder.
 */
final class ReloadingContext {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingContext.class);

  /**
   * A context's engines with the parameters its connections get, the identity of the certificate it presents, and
   * the OCSP response it staples for it when its engines staple what they are handed.
   */
  static final class Snapshot {
    private final TlsEngineContext engines;
    private final SSLParameters parameters;
    private final Optional<CertificateIdentity> identity;
    private final Optional<OwnOcspStaple> staple;

    Snapshot(TlsEngineContext engines, SSLParameters parameters, Optional<CertificateIdentity> identity,
        Optional<OwnOcspStaple> staple) {
      this.engines = engines;
      this.parameters = parameters;
      this.identity = identity;
      this.staple = staple;
    }

    /** A new engine for {@code role} with this snapshot's parameters, handed the current staple if there is one. */
    SSLEngine newEngine(Role role, String host, int port) {
      SSLEngine engine = TlsPolicy.newEngine(engines, parameters, role, host, port);
      staple.flatMap(OwnOcspStaple::response).ifPresent(response -> engines.staple(engine, response));
      return engine;
    }

    /**
     * Fetches the response to staple in the background, if this snapshot staples one; the future completes when the
     * fetch has ended, with a response or without one.
     */
    CompletableFuture<Void> stapleFetched() {
      return staple.map(OwnOcspStaple::fetchFirstInBackground).orElseGet(() -> CompletableFuture.completedFuture(null));
    }

    /** Empty without a key store, or when a custom factory's key store cannot be read by this module. */
    Optional<CertificateIdentity> identity() {
      return identity;
    }
  }

  private final SslContextFactory factory;
  private final TlsSettings settings;
  private final Role role;
  private final List<Path> files;
  private final long intervalNanos;
  private volatile Snapshot snapshot;
  private volatile long nextCheck;
  /** The fingerprint of the files as last read. */
  private byte[] fingerprint;
  /** The fingerprint of files that changed but could not be loaded, warned about once. */
  private byte[] unloadable;
  /** How many reloads were accepted: one whose staple is still being fetched is taken only if no later one was. */
  private long accepted;

  /** Loads the material now, so a bad file fails the transport factory's creation with a message naming it. */
  ReloadingContext(SslContextFactory factory, TlsSettings settings, Role role) {
    this.factory = factory;
    this.settings = settings;
    this.role = role;
    this.files = files(settings);
    this.intervalNanos = settings.reloadInterval().toNanos();
    this.fingerprint = fingerprint();
    try {
      this.snapshot = load();
    } catch (IOException | GeneralSecurityException e) {
      throw configException(e);
    }
    // A server starts with its response to staple, if one can be had.
    snapshot.staple.ifPresent(OwnOcspStaple::fetchFirst);
    this.nextCheck = System.nanoTime() + intervalNanos;
  }

  /** The current context, reloaded first if the check interval has passed and the files changed. */
  Snapshot current() {
    if (intervalNanos > 0 && System.nanoTime() - nextCheck >= 0) {
      reloadIfChanged();
    }
    return snapshot;
  }

  private synchronized void reloadIfChanged() {
    if (System.nanoTime() - nextCheck < 0) {
      return;
    }
    nextCheck = System.nanoTime() + intervalNanos;
    byte[] before = fingerprint();
    if (Arrays.equals(before, fingerprint)) {
      return;
    }
    Snapshot next = null;
    Exception failure = null;
    try {
      next = load();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      failure = e;
    }
    if (!Arrays.equals(before, fingerprint())) {
      LOG.debug("TLS files {} changed while they were loaded; reading them again at the next check", files);
      return;
    }
    if (failure != null) {
      // Not recorded as seen: the next check loads them again, in case this load caught a moment the fingerprints
      // did not (a file rewritten in place with the same bytes). The warning is once per content.
      if (!Arrays.equals(before, unloadable)) {
        unloadable = before;
        LOG.warn("TLS files {} changed but cannot be loaded, keeping the previous material: {}", files,
            PeerText.messageOf(failure));
      }
      return;
    }
    fingerprint = before;
    unloadable = null;
    Optional<CertificateIdentity> was = snapshot.identity();
    Optional<CertificateIdentity> now = next.identity();
    if (was.isPresent() && now.isPresent() && !was.get().sameAs(now.get())) {
      String changes = was.get().changesTo(now.get());
      String setting = ConfigProperty.TLS_RELOAD_IDENTITY_CHANGE.key();
      if (settings.reloadIdentityChange() == IdentityChange.REFUSE) {
        LOG.warn("TLS key store {} now holds a certificate of another identity ({}); refused: new handshakes keep the"
            + " previous key and trust material, whose certificate is {}. Set {}={} to take such a change on reload;"
            + " a restart loads it as well", keyStorePath(), changes, was.get().describe(), setting,
            IdentityChange.ALLOW.token());
        return;
      }
      LOG.info("TLS key store {} now holds a certificate of another identity ({}); taken, as {}={}", keyStorePath(),
          changes, setting, IdentityChange.ALLOW.token());
    }
    long generation = ++accepted;
    // A reload to material whose OCSP response is stapled takes it once the response is fetched, off the handshake's
    // thread (on the non-blocking server an event loop, which a slow responder would hold up to its 5 s timeout);
    // until then new handshakes keep the previous certificate and its response.
    Snapshot taken = next;
    taken.stapleFetched().whenComplete((done, thrown) -> take(taken, generation, thrown));
  }

  /** Makes {@code next} the material new handshakes get, unless a later reload was accepted meanwhile. */
  private synchronized void take(Snapshot next, long generation, Throwable stapleFailure) {
    if (stapleFailure != null) {
      LOG.warn("fetching the OCSP response to staple for the reloaded TLS material failed; it is used without one"
          + " until the next fetch: {}", PeerText.messageOf(stapleFailure));
    }
    if (generation != accepted) {
      return;
    }
    snapshot = next;
    LOG.info("reloaded TLS key and trust material from {}{}", files,
        next.identity().map(identity -> "; this side's certificate: " + identity.describe()).orElse(""));
  }

  private Path keyStorePath() {
    return settings.keyStore().map(StoreLocation::path).orElseThrow();
  }

  /**
   * The context and the identity of the certificate it presents. The standard factory is handed the key loaded here,
   * so the identity checked is the one served; a custom factory loads its own, and the identity is read from the
   * configured key store when this module can read it.
   */
  private Snapshot load() throws IOException, GeneralSecurityException {
    if (factory == StandardSslContextFactory.INSTANCE) {
      SingleKeyManager keys = settings.keyStore().isEmpty() ? null
          : StoreLoader.keyManager(settings.keyStore().get(), settings.fips());
      if (keys != null && role == Role.SERVER && settings.ocspStapling()
          && keys.getCertificateChain(keys.alias()).length < 2) {
        // The JDK would silently staple nothing, and nor could anyone else: a certificate is named to its responder by
        // its issuer.
        throw new GeneralSecurityException(keyStorePath() + " holds only its certificate, but stapling its OCSP"
            + " response (" + ConfigProperty.TLS_REVOCATION_OCSP_STAPLING.key() + ") needs the issuing CA's"
            + " certificate after it in the chain; add it");
      }
      TlsEngineContext engines = StandardSslContextFactory.INSTANCE.engineContext(settings, keys, role);
      // Engines that staple only what they are handed get the response for this certificate, fetched before use.
      Optional<OwnOcspStaple> staple = keys != null && role == Role.SERVER && settings.ocspStapling()
          && engines.staplesHandedResponses() ? Optional.of(OwnOcspStaple.of(settings,
          keys.getCertificateChain(keys.alias()))) : Optional.empty();
      return new Snapshot(engines, TlsPolicy.parameters(engines, settings, role),
          Optional.ofNullable(keys).map(k -> CertificateIdentity.of(k.leaf())), staple);
    }
    SSLContext context = factory.createContext(settings, role);
    return new Snapshot(new JcaEngineContext(context), factory.parameters(context, settings, role),
        settings.keyStore().flatMap(ReloadingContext::readIdentity), Optional.empty());
  }

  private static Optional<CertificateIdentity> readIdentity(StoreLocation keyStore) {
    try {
      return Optional.of(CertificateIdentity.of(StoreLoader.keyManager(keyStore).leaf()));
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      LOG.debug("the configured SSL context factory loaded {}, which this module cannot read ({}); its identity is"
          + " not checked on reload", keyStore.path(), PeerText.messageOf(e));
      return Optional.empty();
    }
  }

  private byte[] fingerprint() {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Path file : files) {
        digest.update(file.toString().getBytes(StandardCharsets.UTF_8));
        try {
          digest.update(Files.readAllBytes(file));
        } catch (IOException e) {
          digest.update((byte) 0);
        }
      }
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }

  private static List<Path> files(TlsSettings settings) {
    List<Path> files = new ArrayList<>();
    settings.keyStore().map(StoreLoader::files).ifPresent(files::addAll);
    settings.trustStore().map(StoreLoader::files).ifPresent(files::addAll);
    files.addAll(settings.crlFiles());
    return List.copyOf(files);
  }

  /**
   * Names the setting to fix: the CRL files' key for a CRL file, the OCSP cache's without BouncyCastle, the stapling
   * one for a chain without its issuer, the password key for a wrong password, else the path key of the store at
   * fault.
   */
  private ConfigException configException(Exception e) {
    String raw = String.valueOf(e.getMessage());
    for (ConfigProperty revocation : List.of(ConfigProperty.TLS_REVOCATION_CRL_FILES,
        ConfigProperty.TLS_REVOCATION_OCSP_CACHE_MAX, ConfigProperty.TLS_REVOCATION_OCSP_STAPLING)) {
      if (raw.contains(revocation.key())) {
        return ConfigException.escaped(revocation.key(), PeerText.messageOf(e), ConfigException.BUILDER);
      }
    }
    boolean keyStore = settings.keyStore().map(StoreLocation::path).map(Path::toString).filter(raw::contains)
        .isPresent();
    // Escaped once: a PEM parser's message was escaped where it was made.
    String message = PeerText.messageOf(e);
    String store = keyStore ? "keystore" : "truststore";
    String setting = e instanceof UnrecoverableKeyException ? "password" : "path";
    return ConfigException.escaped("securethrift.tls." + store + "." + setting, message, ConfigException.BUILDER);
  }
}
