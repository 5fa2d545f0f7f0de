package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.spi.LayerProvider.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@link SSLContext} of a configuration and role, cached so every connection shares its session cache, and
 * replaced when the key, trust or CRL files change. The files are checked at most once per reload interval, on the
 * thread of a new handshake, by hashing their content (a rotated certificate often has the same size, and copies may
 * keep the modification time). Open connections keep the context they were made with; a change that cannot be loaded
 * (half-written files, a key that does not match its certificate yet) is logged and the old material stays in use
 * until the files change again.
 */
final class ReloadingContext {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingContext.class);

  /** A context with the parameters its connections get. */
  static final class Snapshot {
    private final SSLContext context;
    private final SSLParameters parameters;

    Snapshot(SSLContext context, SSLParameters parameters) {
      this.context = context;
      this.parameters = parameters;
    }

    SSLContext context() {
      return context;
    }

    SSLParameters parameters() {
      return parameters;
    }
  }

  private final SslContextFactory factory;
  private final TlsSettings settings;
  private final Role role;
  private final List<Path> files;
  private final long intervalNanos;
  private volatile Snapshot snapshot;
  private volatile long nextCheck;
  private byte[] fingerprint;

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
    byte[] now = fingerprint();
    if (Arrays.equals(now, fingerprint)) {
      return;
    }
    fingerprint = now;
    try {
      snapshot = load();
      LOG.info("reloaded TLS key, trust and revocation material from {}", files);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      LOG.warn("TLS files {} changed but cannot be loaded, keeping the previous material: {}", files,
          PeerText.messageOf(e));
    }
  }

  private Snapshot load() throws IOException, GeneralSecurityException {
    SSLContext context = factory.createContext(settings, role);
    return new Snapshot(context, factory.parameters(context, settings, role));
  }

  private byte[] fingerprint() {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Path file : files) {
        digest.update(file.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
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
   * Names the setting to fix: the CRL files' key for a CRL file, the password key for a wrong password, else the path
   * key of the store at fault.
   */
  private ConfigException configException(Exception e) {
    String raw = String.valueOf(e.getMessage());
    if (raw.contains(ConfigProperty.TLS_REVOCATION_CRL_FILES.key())) {
      return ConfigException.escaped(ConfigProperty.TLS_REVOCATION_CRL_FILES.key(), PeerText.messageOf(e),
          ConfigException.BUILDER);
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
