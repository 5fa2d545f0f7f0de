package io.securethrift.tls;

import io.securethrift.core.TlsSettings;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.internal.EscapedMessage;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.LayerProvider.Role;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;

/**
 * Turns the engines' handshake errors into one sentence naming the cause, the setting involved and, when this side
 * rejected the peer's certificate, whose certificate it was. The engines word the same failure differently (JSSE's
 * "Unsupported or unrecognized SSL message", Conscrypt's {@code WRONG_VERSION_NUMBER}, Netty's OpenSSL engine's "not
 * an SSL/TLS record"); operators should not have to know any of them. The engine's own text stays in the cause,
 * escaped by {@link EngineErrors}.
 */
final class HandshakeErrors {
  /**
   * A server's explanation when the client closed without an alert. Neither engine says whether the client had sent
   * any byte, so it stands for a connection closed before a handshake really began: port scanners and TCP health
   * checks close like this, while a client that rejects the server sends an alert.
   */
  private static final String CLIENT_CLOSED = "the client closed the connection before completing the TLS"
      + " handshake, without a TLS alert";

  private HandshakeErrors() {}

  /**
   * The exception a server's layer throws for a failed handshake: {@link #explain}'s, classified for the audit as a
   * timeout, a connection closed before the handshake, or a TLS alert.
   */
  static HandshakeFailure serverFailure(IOException e, TlsSettings settings, String peer,
      Optional<X509Certificate> rejected) {
    SSLHandshakeException explained = explain(e, Role.SERVER, settings, peer, rejected);
    AuthFailure reason = has(e, SocketTimeoutException.class) ? AuthFailure.TIMEOUT
        : CLIENT_CLOSED.equals(explanation(e, Role.SERVER, settings)) ? AuthFailure.CLOSED_BEFORE_HANDSHAKE
        : AuthFailure.TLS_ALERT;
    return new HandshakeFailure(reason, explained.getMessage(), explained);
  }

  /**
   * The exception to throw for a failed handshake.
   *
   * @param rejected the leaf of the peer's chain, when this side's trust manager rejected it
   */
  static SSLHandshakeException explain(IOException e, Role role, TlsSettings settings, String peer,
      Optional<X509Certificate> rejected) {
    // A revocation refusal names the certificate itself, by serial number as well.
    boolean revoked = find(e, RevokedCertificateException.class) != null;
    String cause = explanation(e, role, settings)
        + rejected.filter(leaf -> !revoked).map(leaf -> " (" + PrincipalMapper.describe(leaf) + ")").orElse("");
    SSLHandshakeException explained = new Explained("TLS handshake with " + peer + " failed: " + cause);
    explained.initCause(EngineErrors.safe(e));
    return explained;
  }

  /** An explanation: this layer's text, quoting a certificate's names escaped with {@link PrincipalMapper#describe}. */
  private static final class Explained extends SSLHandshakeException implements EscapedMessage {
    private static final long serialVersionUID = 1L;

    Explained(String message) {
      super(message);
    }
  }

  private static String explanation(IOException e, Role role, TlsSettings settings) {
    String text = messages(e);
    String otherSide = role == Role.SERVER ? "client" : "server";
    if (has(e, SocketTimeoutException.class)) {
      return "the " + otherSide + " stalled mid-handshake and was dropped after securethrift.timeout.handshake";
    }
    RevokedCertificateException revoked = find(e, RevokedCertificateException.class);
    if (revoked != null) {
      return "the " + otherSide + "'s " + revoked.reason();
    }
    if (has(e, CertificateExpiredException.class)) {
      return "the " + otherSide + "'s certificate has expired";
    }
    if (has(e, CertificateNotYetValidException.class)) {
      return "the " + otherSide + "'s certificate is not yet valid";
    }
    if (has(e, CertPathBuilderException.class) || has(e, CertPathValidatorException.class)
        || text.contains("path building failed")
        || text.contains("certificate_verify_failed")) {
      return "the " + otherSide + "'s certificate is not issued by a CA in "
          + settings.trustStore().map(s -> "the trust store " + s.path()).orElse("the JVM's default trust store");
    }
    if (text.contains("subject alternative") || text.contains("no name matching")) {
      return "the server's certificate does not name the host dialled (hostname verification,"
          + " securethrift.tls.hostname.verification)";
    }
    if (text.contains("empty client certificate chain") || text.contains("peer_did_not_return_a_certificate")
        || text.contains("certificate_required")) {
      return role == Role.SERVER
          ? "the client sent no certificate, but securethrift.tls.client.auth=need"
          : "the server requires a client certificate; set securethrift.tls.keystore.path";
    }
    if (text.contains("unsupported or unrecognized ssl message") || text.contains("wrong_version_number")
        || text.contains("http_request") || text.contains("plaintext connection")
        || text.contains("not an ssl/tls record") || text.contains("unable to parse tls packet header")
        || text.contains("unknown_protocol") || text.contains("unexpected_record")
        || text.contains("record_length_mismatch")
        || text.contains("invalid_outer_record_type") || text.contains("encrypted_length_too_long")) {
      return "the " + otherSide + " did not send a TLS handshake message (is it speaking plaintext, or not TLS at"
          + " all?)";
    }
    if (text.contains("protocol_version") || text.contains("unsupported_protocol")
        || text.contains("no appropriate protocol") || text.contains("is not enabled or supported")) {
      return "no TLS version in common: this side enables " + settings.protocols() + " ("
          + TlsPolicy.PROTOCOLS_KEY + ")";
    }
    if (text.contains("no common named group") || text.contains("no_shared_group")) {
      return "no key exchange group in common" + ecNote(settings);
    }
    if (text.contains("no_shared_cipher") || text.contains("handshake_failure") || text.contains("no cipher suites")) {
      return "no cipher suite in common (" + TlsPolicy.CIPHER_SUITES_KEY + ", " + TlsPolicy.PROTOCOLS_KEY + ")"
          + ecNote(settings);
    }
    if (text.contains("bad_certificate") || text.contains("certificate_unknown") || text.contains("unknown_ca")
        || text.contains("certificate_revoked")) {
      return "the " + otherSide + " rejected this side's certificate";
    }
    if (has(e, EOFException.class) || has(e, SocketException.class) || text.contains("terminated the handshake")
        || text.contains("connection reset") || text.contains("closed")) {
      return role == Role.CLIENT ? "the server closed the connection during the TLS handshake (is it a plaintext"
          + " port, or does it refuse this client's certificate or TLS versions?)" : CLIENT_CLOSED;
    }
    return "TLS error" + ecNote(settings);
  }

  /**
   * Why negotiation may have failed when this side is JSSE without EC: it then offers only finite-field key exchange
   * and no ECDSA, which Conscrypt (BoringSSL) and many other peers do not accept; empty otherwise.
   */
  private static String ecNote(TlsSettings settings) {
    // An engine with a JCA provider of its own (Conscrypt) brings its own EC; the JDK's needs jdk.crypto.ec.
    if (settings.engineProvider().provider().isPresent() || EcSupport.available()) {
      return "";
    }
    return "; this side's JSSE offers no ECDHE key exchange or ECDSA signatures, because " + EcSupport.missing();
  }

  private static String messages(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      s.append(' ').append(t.getMessage());
    }
    return s.toString().toLowerCase(Locale.ROOT);
  }

  private static boolean has(Throwable e, Class<? extends Throwable> type) {
    return find(e, type) != null;
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
