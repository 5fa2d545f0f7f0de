package io.securethrift.tls;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerText;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OCSP response a server staples for its own certificate, on an engine that staples what it is handed
 * ({@code openssl}): fetched with {@link OcspResponseCache}'s request, limits and timeout before the key material is
 * used (so a server starts with its response, waiting for it at most {@link OcspResponseCache#FETCH_TIMEOUT}, and a
 * reload takes the new material once its response is fetched in the background), then again in the background once
 * half its time is gone. A response is
 * stapled until its nextUpdate, at most {@code securethrift.tls.revocation.ocsp.cache.max} when that is above 0, and
 * only a successful one with a nextUpdate; whatever it says is the client's to check. When no response can be had,
 * handshakes staple none and go on, the client decides by its own policy, and the fetch is tried again every
 * {@link OcspResponseCache#FAILURE_MEMORY}; the failure is logged once until a response is had again.
 */
final class OwnOcspStaple {
  private static final Logger LOG = LoggerFactory.getLogger(OwnOcspStaple.class);
  /** Refreshes of every server's staple: threads made as needed, ended after a minute idle, none holding a JVM. */
  private static final ExecutorService REFRESHES = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, "securethrift-ocsp-staple");
    thread.setDaemon(true);
    return thread;
  });

  private final OcspResponseCache responder;
  private final X509Certificate certificate;
  private final X509Certificate issuer;
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private final AtomicBoolean failureLogged = new AtomicBoolean();
  private volatile Staple current = new Staple(null, System.nanoTime(), System.nanoTime());

  private OwnOcspStaple(TlsSettings settings, X509Certificate certificate, X509Certificate issuer) {
    Duration max = settings.ocspCacheMax().isZero() ? Duration.ofNanos(Long.MAX_VALUE) : settings.ocspCacheMax();
    this.responder = new OcspResponseCache(max, settings.ocspResponder());
    this.certificate = certificate;
    this.issuer = issuer;
  }

  /**
   * The staple for a chain, leaf first with its issuer after it, with no response until {@link #fetchFirst()} or
   * {@link #fetchFirstInBackground()}.
   *
   * @throws GeneralSecurityException when BouncyCastle, which makes and reads the OCSP messages, is missing
   */
  static OwnOcspStaple of(TlsSettings settings, X509Certificate[] chain) throws GeneralSecurityException {
    PemSupport.require("stapling OCSP responses on this engine (" + ConfigProperty.TLS_REVOCATION_OCSP_STAPLING.key()
        + ") needs " + PemSupport.DEPENDENCY, OwnOcspStaple.class.getClassLoader());
    return new OwnOcspStaple(settings, chain[0], chain[1]);
  }

  /** Fetches the first response on this thread, waiting at most {@link OcspResponseCache#FETCH_TIMEOUT}. */
  void fetchFirst() {
    refresh();
  }

  /**
   * Fetches the first response on a refresh thread; the future completes when the fetch has ended, with a response
   * or without one (the failure logged as {@link #fetchFirst()} logs it).
   */
  CompletableFuture<Void> fetchFirstInBackground() {
    return CompletableFuture.runAsync(this::refresh, REFRESHES);
  }

  /** The response to staple now, if one is current; starts a refresh in the background when one is due. */
  Optional<byte[]> response() {
    Staple staple = current;
    long now = System.nanoTime();
    if (now - staple.refreshAt >= 0 && refreshing.compareAndSet(false, true)) {
      REFRESHES.execute(() -> {
        try {
          refresh();
        } finally {
          refreshing.set(false);
        }
      });
    }
    return staple.response != null && now - staple.expires < 0 ? Optional.of(staple.response) : Optional.empty();
  }

  private void refresh() {
    OcspResponseCache.Entry fetched = responder.fetchNow(certificate, issuer);
    long now = System.nanoTime();
    if (fetched.failure == null && fetched.kept) {
      current = new Staple(fetched.response, fetched.expires, now + (fetched.expires - now) / 2);
      if (failureLogged.compareAndSet(true, false)) {
        LOG.info("stapling the OCSP response for this server's certificate ({}) again", describe());
      }
      return;
    }
    Staple previous = current;
    current = new Staple(previous.response, previous.expires, now + OcspResponseCache.FAILURE_MEMORY.toNanos());
    if (failureLogged.compareAndSet(false, true)) {
      String why = fetched.failure != null ? PeerText.sanitize(fetched.failure) : "its responder's answer is not a"
          + " successful response with a nextUpdate for it";
      LOG.warn("no OCSP response to staple for this server's certificate ({}): {}; handshakes go on without a staple"
          + " once the last one expires", describe(), why);
    }
  }

  private String describe() {
    return CertificateIdentity.of(certificate).describe();
  }

  /** A response (null for none) stapled until {@code expires}, fetched again from {@code refreshAt} (nano times). */
  private static final class Staple {
    final byte[] response;
    final long expires;
    final long refreshAt;

    Staple(byte[] response, long expires, long refreshAt) {
      this.response = response;
      this.expires = expires;
      this.refreshAt = refreshAt;
    }
  }
}
