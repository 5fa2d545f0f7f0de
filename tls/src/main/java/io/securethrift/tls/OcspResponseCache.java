package io.securethrift.tls;

import io.securethrift.core.ConfigProperty;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Date;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bouncycastle.asn1.ASN1IA5String;
import org.bouncycastle.asn1.x509.AccessDescription;
import org.bouncycastle.asn1.x509.AuthorityInformationAccess;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.OCSPException;
import org.bouncycastle.cert.ocsp.OCSPReqBuilder;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.SingleResp;
import org.bouncycastle.cert.ocsp.jcajce.JcaCertificateID;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

/**
 * The OCSP responses of one {@link RevocationCheck}, fetched here so that they can be kept: the JDK's checker does not
 * expose what it fetches. Each is kept, by certificate (issuer and serial) and responder, until its nextUpdate or
 * {@code securethrift.tls.revocation.ocsp.cache.max}, whichever is first; one without nextUpdate is used once (RFC
 * 6960: newer information is always available). Nothing here decides a verdict: every response goes to the JDK's
 * checker, which verifies its signature, responder and freshness at every handshake as it does a stapled one.
 *
 * <p>A responder that cannot be asked (down, slow, not HTTP 200, too large, not an OCSP response) is remembered for
 * {@link #FAILURE_MEMORY}, and meanwhile the JDK's checker gets a {@code tryLater} response for the certificate
 * instead of asking again itself: it then applies soft or hard failure and the CRL fallback exactly as for a responder
 * it could not reach, without a second wait. One fetch per certificate runs at a time; other handshakes for it wait
 * for that fetch, and no lock is held across the network.
 */
final class OcspResponseCache {
  /** How long a responder that could not be asked is not asked again about the same certificate. */
  static final Duration FAILURE_MEMORY = Duration.ofSeconds(30);
  /** The most a fetch takes, connecting, sending and reading together (each read blocks at most what is left). */
  static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);
  /** The largest response read; one for a certificate with its responder's chain is a few KiB. */
  static final int MAX_RESPONSE_BYTES = 64 * 1024;
  /** The most responses kept; past it, expired ones are dropped, then any one. */
  static final int MAX_ENTRIES = 10_000;
  /** OCSPResponse ::= SEQUENCE { responseStatus tryLater(3) }: "status unknown for now", which the JDK soft-fails. */
  private static final byte[] TRY_LATER = {0x30, 0x03, 0x0a, 0x01, 0x03};

  private final long maxNanos;
  private final Optional<URI> responderOverride;
  private final Map<List<Object>, Entry> entries = new ConcurrentHashMap<>();
  private final Map<List<Object>, CompletableFuture<Entry>> fetches = new ConcurrentHashMap<>();

  OcspResponseCache(Duration max, Optional<URI> responderOverride) {
    this.maxNanos = max.toNanos();
    this.responderOverride = responderOverride;
  }

  /** What the cache holds or fetched for a path: responses for the JDK, and why a responder could not be asked. */
  static final class Answers {
    final Map<X509Certificate, byte[]> responses = new HashMap<>();
    final Map<X509Certificate, String> failures = new HashMap<>();
  }

  /**
   * The responses for the certificates of a path that need one, fetched when none is kept.
   *
   * @param path the path's certificates, leaf first, as the JDK validates them
   * @param anchor the certificate the last of them is issued by
   * @param stapled certificates the peer stapled a response for, which are not fetched
   */
  Answers answers(List<X509Certificate> path, X509Certificate anchor, Map<X509Certificate, byte[]> stapled) {
    Answers answers = new Answers();
    for (int i = 0; i < path.size(); i++) {
      X509Certificate certificate = path.get(i);
      Optional<URI> responder = responderOverride.or(() -> responderOf(certificate));
      if (stapled.containsKey(certificate) || responder.isEmpty() || !"http".equalsIgnoreCase(
          responder.get().getScheme())) {
        continue; // the JDK's checker decides, as without a cache (it refuses a certificate without a responder)
      }
      X509Certificate issuer = i + 1 < path.size() ? path.get(i + 1) : anchor;
      Entry entry = entry(responder.get(), certificate, issuer);
      answers.responses.put(certificate, entry.response);
      if (entry.failure != null) {
        answers.failures.put(certificate, entry.failure);
      }
    }
    return answers;
  }

  /**
   * A response about a server's own certificate, to staple: always fetched now, never one kept, from the responder
   * override or else the certificate's own; a failure when it names none (or not over HTTP) or it cannot be asked.
   */
  Entry fetchNow(X509Certificate certificate, X509Certificate issuer) {
    Optional<URI> responder = responderOverride.or(() -> responderOf(certificate));
    if (responder.isEmpty() || !"http".equalsIgnoreCase(responder.get().getScheme())) {
      return Entry.once(TRY_LATER, responder.map(uri -> "its OCSP responder " + uri + " is not an http: URL").orElse(
          "it names no OCSP responder (Authority Information Access) and "
          + ConfigProperty.TLS_REVOCATION_OCSP_RESPONDER.key() + " is not set"));
    }
    try {
      return fetch(responder.get(), certificateId(certificate, issuer));
    } catch (OCSPException | OperatorCreationException | CertificateEncodingException e) {
      return failed(responder.get(), "cannot make the OCSP request: " + e.getMessage());
    }
  }

  private static CertificateID certificateId(X509Certificate certificate, X509Certificate issuer)
      throws OCSPException, OperatorCreationException, CertificateEncodingException {
    return new JcaCertificateID(new JcaDigestCalculatorProviderBuilder().build().get(CertificateID.HASH_SHA1),
        issuer, certificate.getSerialNumber());
  }

  private Entry entry(URI responder, X509Certificate certificate, X509Certificate issuer) {
    CertificateID id;
    try {
      id = certificateId(certificate, issuer);
    } catch (OCSPException | OperatorCreationException | CertificateEncodingException e) {
      return failed(responder, "cannot make the OCSP request: " + e.getMessage());
    }
    List<Object> key = List.of(responder, id); // CertificateID compares by issuer hashes and serial
    Entry kept = entries.get(key);
    if (kept != null && kept.current()) {
      return kept;
    }
    CompletableFuture<Entry> mine = new CompletableFuture<>();
    CompletableFuture<Entry> running = fetches.putIfAbsent(key, mine);
    if (running != null) {
      return awaitOther(responder, running);
    }
    try {
      Entry fetched = fetch(responder, id);
      if (fetched.kept) {
        keep(key, fetched);
      }
      mine.complete(fetched);
      return fetched;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      fetches.remove(key, mine);
    }
  }

  /** Another handshake's fetch of the same response: bounded by that fetch's own timeout. */
  private static Entry awaitOther(URI responder, CompletableFuture<Entry> running) {
    try {
      return running.get(2 * FETCH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Entry.once(TRY_LATER, "interrupted while another handshake asked the OCSP responder " + responder);
    } catch (ExecutionException | TimeoutException e) {
      return Entry.once(TRY_LATER, "another handshake's request to the OCSP responder " + responder
          + " did not end: " + e);
    }
  }

  private void keep(List<Object> key, Entry entry) {
    if (entries.size() >= MAX_ENTRIES) {
      entries.values().removeIf(e -> !e.current());
      Iterator<List<Object>> any = entries.keySet().iterator();
      while (entries.size() >= MAX_ENTRIES && any.hasNext()) {
        any.next();
        any.remove();
      }
    }
    entries.put(key, entry);
  }

  private Entry fetch(URI responder, CertificateID id) {
    long start = System.nanoTime();
    byte[] response;
    OCSPResp parsed;
    try {
      response = post(responder, new OCSPReqBuilder().addRequest(id).build().getEncoded(), start);
      parsed = new OCSPResp(response);
    } catch (IOException | OCSPException | RuntimeException e) {
      // RuntimeException: BouncyCastle's ASN.1 parser reports some malformed input with unchecked exceptions.
      return failed(responder, e.getMessage());
    }
    Date nextUpdate = nextUpdate(parsed, id);
    if (nextUpdate == null) {
      return Entry.once(response, null); // an error status or no nextUpdate: the JDK judges it, nobody keeps it
    }
    long validNanos = Math.min(maxNanos,
        TimeUnit.MILLISECONDS.toNanos(nextUpdate.getTime() - System.currentTimeMillis()));
    return validNanos > 0 ? new Entry(response, start + validNanos, null) : Entry.once(response, null);
  }

  /** The nextUpdate the response gives for the certificate, or null (an error status, none given, not about it). */
  private static Date nextUpdate(OCSPResp response, CertificateID id) {
    if (response.getStatus() != OCSPResp.SUCCESSFUL) {
      return null;
    }
    try {
      Object basic = response.getResponseObject();
      if (basic instanceof BasicOCSPResp) {
        for (SingleResp single : ((BasicOCSPResp) basic).getResponses()) {
          if (id.equals(single.getCertID())) {
            return single.getNextUpdate();
          }
        }
      }
    } catch (OCSPException | RuntimeException e) {
      return null; // left to the JDK's checker, which will say what is wrong with it
    }
    return null;
  }

  private Entry failed(URI responder, String why) {
    long memory = Math.min(maxNanos, FAILURE_MEMORY.toNanos());
    return new Entry(TRY_LATER, System.nanoTime() + memory, "the OCSP responder " + responder
        + " could not be asked (not asked again for " + FAILURE_MEMORY.toSeconds() + " s): " + why);
  }

  /**
   * POSTs the request (no nonce: a kept response cannot carry one) and reads the response, refusing a status but 200
   * and a body above {@link #MAX_RESPONSE_BYTES} whatever length the responder announces, within
   * {@link #FETCH_TIMEOUT}. Redirects are not followed.
   */
  private static byte[] post(URI responder, byte[] request, long start) throws IOException {
    long deadline = start + FETCH_TIMEOUT.toNanos();
    HttpURLConnection connection = (HttpURLConnection) responder.toURL().openConnection();
    try {
      connection.setConnectTimeout(remainingMillis(deadline));
      connection.setReadTimeout(remainingMillis(deadline));
      connection.setInstanceFollowRedirects(false);
      connection.setUseCaches(false);
      connection.setDoOutput(true);
      connection.setRequestMethod("POST");
      connection.setRequestProperty("Content-Type", "application/ocsp-request");
      connection.setRequestProperty("Accept", "application/ocsp-response");
      // Streaming also stops HttpURLConnection from sending the POST a second time on a dropped connection.
      connection.setFixedLengthStreamingMode(request.length);
      try (OutputStream out = connection.getOutputStream()) {
        out.write(request);
      }
      connection.setReadTimeout(remainingMillis(deadline));
      int status = connection.getResponseCode();
      if (status != HttpURLConnection.HTTP_OK) {
        throw new IOException("it answered HTTP " + status);
      }
      long announced = connection.getContentLengthLong();
      if (announced > MAX_RESPONSE_BYTES) {
        throw new IOException("it announced " + announced + " bytes, more than the " + MAX_RESPONSE_BYTES
            + " an OCSP response is read up to");
      }
      try (InputStream in = connection.getInputStream()) {
        return readBounded(in, connection, deadline);
      }
    } finally {
      connection.disconnect();
    }
  }

  /** Reads to the end, growing with what arrives: never more than the limit, never past the deadline. */
  private static byte[] readBounded(InputStream in, HttpURLConnection connection, long deadline) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      body.write(buffer, 0, n);
      if (body.size() > MAX_RESPONSE_BYTES) {
        throw new IOException("its response is longer than the " + MAX_RESPONSE_BYTES
            + " bytes an OCSP response is read up to");
      }
      connection.setReadTimeout(remainingMillis(deadline));
    }
    return body.toByteArray();
  }

  /** What is left until the deadline, at least a millisecond (0 would mean no timeout); past it, a timeout. */
  private static int remainingMillis(long deadline) throws IOException {
    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    if (left <= 0) {
      throw new IOException("it did not answer within " + FETCH_TIMEOUT.toSeconds() + " s");
    }
    return (int) left;
  }

  /** The OCSP responder a certificate names in its Authority Information Access extension, if any. */
  private static Optional<URI> responderOf(X509Certificate certificate) {
    byte[] extension = certificate.getExtensionValue(Extension.authorityInfoAccess.getId());
    if (extension == null) {
      return Optional.empty();
    }
    try {
      AuthorityInformationAccess access = AuthorityInformationAccess.getInstance(
          JcaX509ExtensionUtils.parseExtensionValue(extension));
      for (AccessDescription description : access.getAccessDescriptions()) {
        GeneralName location = description.getAccessLocation();
        if (description.getAccessMethod().equals(AccessDescription.id_ad_ocsp)
            && location.getTagNo() == GeneralName.uniformResourceIdentifier) {
          return Optional.of(URI.create(ASN1IA5String.getInstance(location.getName()).getString()));
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // the JDK's checker reads it too, and refuses or soft-fails a certificate it cannot
    }
    return Optional.empty();
  }

  /** The message naming the dependency OCSP caching needs, when BouncyCastle is missing. */
  static String missingBouncyCastle() {
    return ConfigProperty.TLS_REVOCATION_OCSP_CACHE_MAX.key() + " is above 0, and caching OCSP responses needs "
        + PemSupport.DEPENDENCY + ", or set it to 0";
  }

  /** A response to hand the JDK, kept until {@code expires} (a {@link System#nanoTime()}) or used once. */
  static final class Entry {
    final byte[] response;
    final boolean kept;
    final long expires;
    /** Why the responder could not be asked, when {@code response} is the stand-in {@link #TRY_LATER}. */
    final String failure;

    Entry(byte[] response, long expires, String failure) {
      this(response, true, expires, failure);
    }

    private Entry(byte[] response, boolean kept, long expires, String failure) {
      this.response = response;
      this.kept = kept;
      this.expires = expires;
      this.failure = failure;
    }

    static Entry once(byte[] response, String failure) {
      return new Entry(response, false, 0, failure);
    }

    boolean current() {
      return kept && System.nanoTime() - expires < 0;
    }
  }
}
