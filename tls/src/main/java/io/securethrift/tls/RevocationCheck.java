package io.securethrift.tls;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.OcspMode;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CRL;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.CertStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXRevocationChecker;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a peer chain that the JDK's trust manager has accepted for revocation, with the JDK's PKIX machinery: the
 * path the JDK would build from the peer's certificates to a trusted CA ({@link CertPathBuilder}, without revocation),
 * then validated again with a {@link PKIXRevocationChecker} configured from the settings: the CRL files as a
 * {@link CertStore}, OCSP on or off, soft or hard failure, the responder override, and the OCSP responses the peer
 * stapled in its handshake or, unless {@code securethrift.tls.revocation.ocsp.cache.max} is 0, those an
 * {@link OcspResponseCache} keeps or fetches. Every certificate below the trust anchor is checked.
 *
 * <p>A separate step rather than revocation inside the JDK's trust manager (its {@code CertPathTrustManagerParameters})
 * because that trust manager clones the checker for every validation, so the soft-fail exceptions that must be
 * logged would be lost, and because its revocation error reaches the engines only as text. One instance serves every
 * handshake of one context; the JDK checker is not thread-safe, so each check clones it. A rebuilt context (changed
 * CRL files) gets a new instance.
 */
final class RevocationCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RevocationCheck.class);
  /** One soft-fail warning a minute per context at most: a responder that is down would log at every handshake. */
  private static final long WARN_INTERVAL = TimeUnit.MINUTES.toNanos(1);

  private final Set<TrustAnchor> anchors;
  private final CertStore crls;
  private final boolean hasCrls;
  private final PKIXRevocationChecker checker;
  private final OcspMode ocsp;
  /** The kept OCSP responses, or null when OCSP is off or not cached: the JDK's checker then asks itself. */
  private final OcspResponseCache ocspCache;
  private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_INTERVAL);
  private final AtomicLong softFailuresSinceWarning = new AtomicLong();

  private RevocationCheck(Set<TrustAnchor> anchors, List<CRL> crls, TlsSettings settings)
      throws GeneralSecurityException {
    this.anchors = anchors;
    this.crls = CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls));
    this.hasCrls = !crls.isEmpty();
    this.ocsp = settings.ocsp();
    this.ocspCache = ocsp == OcspMode.OFF || settings.ocspCacheMax().isZero() ? null
        : new OcspResponseCache(settings.ocspCacheMax(), settings.ocspResponder());
    this.checker = (PKIXRevocationChecker) CertPathValidator.getInstance("PKIX").getRevocationChecker();
    Set<PKIXRevocationChecker.Option> options = EnumSet.noneOf(PKIXRevocationChecker.Option.class);
    if (ocsp == OcspMode.OFF) {
      options.add(PKIXRevocationChecker.Option.PREFER_CRLS);
    }
    // Without a second source, a fallback would only reach for the certificates' CRL distribution points when the JVM
    // enables them (com.sun.security.enableCRLDP): nothing the operator configured here.
    if (ocsp == OcspMode.OFF || !hasCrls) {
      options.add(PKIXRevocationChecker.Option.NO_FALLBACK);
    }
    if (ocsp == OcspMode.SOFT_FAIL) {
      options.add(PKIXRevocationChecker.Option.SOFT_FAIL);
    }
    checker.setOptions(options);
    settings.ocspResponder().ifPresent(checker::setOcspResponder);
  }

  /**
   * The check the settings ask for, or null when they ask for none.
   *
   * @param trusted the trust manager's accepted issuers: the anchors of every path it accepts
   */
  static RevocationCheck create(TlsSettings settings, X509Certificate[] trusted)
      throws IOException, GeneralSecurityException {
    if (!settings.checksRevocation()) {
      return null;
    }
    if (settings.ocsp() != OcspMode.OFF && !settings.ocspCacheMax().isZero()) {
      PemSupport.require(OcspResponseCache.missingBouncyCastle(), RevocationCheck.class.getClassLoader());
    }
    Set<TrustAnchor> anchors = new HashSet<>();
    for (X509Certificate certificate : trusted) {
      anchors.add(new TrustAnchor(certificate, null));
    }
    List<CRL> crls = new ArrayList<>();
    for (Path file : settings.crlFiles()) {
      crls.addAll(readCrls(file));
    }
    return new RevocationCheck(anchors, crls, settings);
  }

  /** The CRLs in one file, PEM or DER; an error names the file and the setting. */
  static Collection<? extends CRL> readCrls(Path file) throws IOException, GeneralSecurityException {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file + " does not exist (" + ConfigProperty.TLS_REVOCATION_CRL_FILES.key() + ")");
    }
    Collection<? extends CRL> crls;
    try {
      crls = CertificateFactory.getInstance("X.509").generateCRLs(new ByteArrayInputStream(content));
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException("cannot read " + file + " as a CRL (" + ConfigProperty.TLS_REVOCATION_CRL_FILES
          .key() + "): " + e.getMessage(), e);
    }
    if (crls.isEmpty()) {
      throw new GeneralSecurityException(file + " holds no CRL (" + ConfigProperty.TLS_REVOCATION_CRL_FILES.key()
          + "); give PEM (-----BEGIN X509 CRL-----) or DER files");
    }
    return crls;
  }

  /**
   * Refuses the chain when a certificate in it is revoked, or (hard failure) when its status cannot be determined.
   *
   * @param session the handshake session, whose OCSP responses the peer may have stapled; null if unknown
   * @throws RevokedCertificateException when a certificate is revoked or its status is unknown under hard failure
   */
  void check(X509Certificate[] chain, SSLSession session) throws CertificateException {
    PKIXRevocationChecker revocation = (PKIXRevocationChecker) checker.clone();
    PKIXCertPathBuilderResult path = path(chain);
    Map<X509Certificate, byte[]> responses = stapled(chain, session);
    Map<X509Certificate, String> unasked = Map.of();
    if (ocspCache != null) {
      @SuppressWarnings("unchecked")
      List<X509Certificate> certificates = (List<X509Certificate>) path.getCertPath().getCertificates();
      OcspResponseCache.Answers answers = ocspCache.answers(certificates, path.getTrustAnchor().getTrustedCert(),
          responses);
      responses.putAll(answers.responses);
      unasked = answers.failures;
    }
    if (!responses.isEmpty()) {
      revocation.setOcspResponses(responses);
    }
    try {
      PKIXParameters parameters = new PKIXParameters(Set.of(path.getTrustAnchor()));
      parameters.setRevocationEnabled(false);
      parameters.addCertStore(crls);
      parameters.addCertPathChecker(revocation);
      CertPathValidator.getInstance("PKIX").validate(path.getCertPath(), parameters);
    } catch (CertPathValidatorException e) {
      throw RevokedCertificateException.of(explained(e, unasked), chain[0], ocsp);
    } catch (GeneralSecurityException e) {
      throw new CertificateException("cannot check the revocation of " + PrincipalMapper.describe(chain[0]) + ": "
          + e.getMessage(), e);
    }
    if (!revocation.getSoftFailExceptions().isEmpty()) {
      softFailed(chain[0], unasked.isEmpty() ? revocation.getSoftFailExceptions().get(0).getMessage()
          : String.join("; ", unasked.values()));
    }
  }

  /**
   * The JDK's failure, with why the OCSP cache could not ask the responder when that is the cause: the JDK only saw the
   * cache's {@code tryLater} stand-in.
   */
  private static CertPathValidatorException explained(CertPathValidatorException e,
      Map<X509Certificate, String> unasked) {
    if (e.getReason() == BasicReason.REVOKED || unasked.isEmpty()) {
      return e;
    }
    String why = null;
    if (e.getCertPath() != null && e.getIndex() >= 0 && e.getIndex() < e.getCertPath().getCertificates().size()) {
      why = unasked.get(e.getCertPath().getCertificates().get(e.getIndex()));
    }
    return why == null ? e : new CertPathValidatorException(why, e, e.getCertPath(), e.getIndex(), e.getReason());
  }

  /**
   * The path from the leaf to a trusted CA that the JDK's trust manager found valid, built again from the peer's
   * certificates: the peer may send them out of order, or with the root, which the validation must not include.
   */
  private PKIXCertPathBuilderResult path(X509Certificate[] chain) throws CertificateException {
    try {
      X509CertSelector target = new X509CertSelector();
      target.setCertificate(chain[0]);
      PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, target);
      parameters.setRevocationEnabled(false);
      parameters.addCertStore(CertStore.getInstance("Collection",
          new CollectionCertStoreParameters(Arrays.asList(chain))));
      return (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(parameters);
    } catch (InvalidAlgorithmParameterException e) {
      throw new CertificateException("no trusted CA to check revocation against: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new CertificateException("cannot build the path of " + PrincipalMapper.describe(chain[0])
          + " to check its revocation: " + e.getMessage(), e);
    }
  }

  /** The OCSP responses the peer stapled, by certificate; the JDK checks them as it checks fetched ones. */
  private static Map<X509Certificate, byte[]> stapled(X509Certificate[] chain, SSLSession session) {
    Map<X509Certificate, byte[]> responses = new HashMap<>();
    if (session instanceof ExtendedSSLSession) {
      List<byte[]> list;
      try {
        list = ((ExtendedSSLSession) session).getStatusResponses();
      } catch (UnsupportedOperationException e) {
        return responses;
      }
      for (int i = 0; i < Math.min(chain.length, list.size()); i++) {
        if (list.get(i) != null && list.get(i).length > 0) {
          responses.put(chain[i], list.get(i));
        }
      }
    }
    return responses;
  }

  private void softFailed(X509Certificate leaf, String failure) {
    long now = System.nanoTime();
    long last = lastWarning.get();
    if (now - last < WARN_INTERVAL || !lastWarning.compareAndSet(last, now)) {
      softFailuresSinceWarning.incrementAndGet();
      LOG.debug("revocation status of {} unknown, accepted ({}=soft-fail): {}", PrincipalMapper.describe(leaf),
          ConfigProperty.TLS_REVOCATION_OCSP.key(), PeerText.sanitize(String.valueOf(failure)));
      return;
    }
    long omitted = softFailuresSinceWarning.getAndSet(0);
    LOG.warn("the revocation status of the certificate serial {} ({}) could not be determined, accepted because"
        + " {}=soft-fail: {}{}", serial(leaf), PrincipalMapper.describe(leaf), ConfigProperty.TLS_REVOCATION_OCSP.key(),
        PeerText.sanitize(String.valueOf(failure)),
        omitted == 0 ? "" : " (" + omitted + " more since the last such warning)");
  }

  /** A serial number as {@code openssl x509 -serial} and OpenSSL's CA index write it: upper-case hex, whole bytes. */
  static String serial(X509Certificate certificate) {
    String hex = certificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
    return hex.length() % 2 == 0 ? hex : "0" + hex;
  }
}
