package io.securethrift.core.identity;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.internal.SharedAccess.ThrowingRunnable;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who is on the other end of a connection and how it was secured. On a server, the service implementation reads it
 * for the call it is handling with {@link #current()}; on a client, {@link SecuredTransport#peerIdentity()} describes
 * the server.
 */
public final class PeerIdentity {
  private static final ThreadLocal<PeerIdentity> CURRENT = new ThreadLocal<>();
  /** The only issuer; core hands it to the layers it loads, so only they can describe a connection's peer. */
  static final Issuer ISSUER = new Issuer();

  static {
    // The transport package hands the issuer to the layers it loads and runs calls as their identity; neither is
    // API.
    SharedAccess.installIdentity(new SharedAccess.IdentityOperations() {
      @Override
      public Issuer issuer() {
        return ISSUER;
      }

      @Override
      public <E extends Exception> void runAs(PeerIdentity peer, ThrowingRunnable<E> call) throws E {
        PeerIdentity.runAs(peer, call);
      }
    });
    // The TLS layer records the certificate its connection's server presented, the SASL layer binds Kerberos to it;
    // the SASL layer records when a Kerberos client's service ticket ends, the server models close at it. Not API.
    SharedAccess.installIdentityFields(
        SharedAccess.IdentityField.of((b, certificate) -> b.tlsServerCertificate = certificate,
            i -> i.tlsServerCertificate),
        SharedAccess.IdentityField.of((b, end) -> b.ticketEnd = end, i -> i.ticketEnd));
  }

  private final SecurityMode mode;
  private final InetSocketAddress remoteAddress;
  private final String principal;
  private final String mechanism;
  private final QualityOfProtection qop;
  private final SaslPrivacy privacy;
  private final String saslCipher;
  private final CipherStrength saslStrength;
  private final String tlsProtocol;
  private final String tlsCipherSuite;
  private final boolean tlsSessionResumed;
  private final List<X509Certificate> peerCertificates;
  /** The certificate the TLS server presented: the peer's on a client, this server's own on a server. */
  private final X509Certificate tlsServerCertificate;
  /** When the Kerberos service ticket the peer authenticated with ends; null without one. */
  private final Instant ticketEnd;

  private PeerIdentity(Builder b) {
    this.mode = b.mode;
    this.remoteAddress = b.remoteAddress;
    this.principal = b.principal;
    this.mechanism = b.mechanism;
    this.qop = b.qop;
    this.privacy = b.privacy;
    this.saslCipher = b.saslCipher;
    this.saslStrength = b.saslStrength;
    this.tlsProtocol = b.tlsProtocol;
    this.tlsCipherSuite = b.tlsCipherSuite;
    this.tlsSessionResumed = b.tlsSessionResumed;
    this.peerCertificates = List.copyOf(b.peerCertificates);
    this.tlsServerCertificate = b.tlsServerCertificate;
    this.ticketEnd = b.ticketEnd;
  }

  /**
   * The identity of the client whose call this server thread is handling, when the service runs behind
   * {@link ServerTransportFactory#withPeerIdentity}; empty outside such a call.
   */
  public static Optional<PeerIdentity> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** Runs {@code call} with {@code identity} as {@link #current()}, restoring the previous value afterwards. */
  static <E extends Exception> void runAs(PeerIdentity identity, ThrowingRunnable<E> call) throws E {
    PeerIdentity previous = CURRENT.get();
    CURRENT.set(identity);
    try {
      call.run();
    } finally {
      // Set back, even to null, rather than removed: removing clears the thread's entry (a native call) and the next
      // call allocates a new one, once per call on every connection; a null value holds on to nothing.
      CURRENT.set(previous);
    }
  }

  static Builder builder(SecurityMode mode, InetSocketAddress remoteAddress) {
    return new Builder(mode, remoteAddress);
  }

  private Builder toBuilder() {
    Builder b = new Builder(mode, remoteAddress);
    b.principal = principal;
    b.mechanism = mechanism;
    b.qop = qop;
    b.privacy = privacy;
    b.saslCipher = saslCipher;
    b.saslStrength = saslStrength;
    b.tlsProtocol = tlsProtocol;
    b.tlsCipherSuite = tlsCipherSuite;
    b.tlsSessionResumed = tlsSessionResumed;
    b.peerCertificates = peerCertificates;
    b.tlsServerCertificate = tlsServerCertificate;
    b.ticketEnd = ticketEnd;
    return b;
  }

  public SecurityMode mode() {
    return mode;
  }

  public InetSocketAddress remoteAddress() {
    return remoteAddress;
  }

  /**
   * The authenticated name: the SASL principal ({@code user@REALM}, or the delegation token's owner), else the name
   * mapped from the TLS client certificate; empty when the peer is anonymous. Exactly as authenticated, so it may hold
   * any character a certificate or token carries: pass it through {@link PeerText#sanitize} before logging it
   * ({@link #toString()} does).
   */
  public Optional<String> principal() {
    return Optional.ofNullable(principal);
  }

  /** {@code GSSAPI}, {@code DIGEST-MD5}, or empty when SASL was not used. */
  public Optional<String> mechanism() {
    return Optional.ofNullable(mechanism);
  }

  /** The negotiated SASL protection level. */
  public Optional<QualityOfProtection> qop() {
    return Optional.ofNullable(qop);
  }

  /**
   * How an {@code auth-conf} connection encrypts: {@link SaslPrivacy#GSS} (the mechanism's wrap) or
   * {@link SaslPrivacy#AES_GCM} (AES-GCM records keyed through it); empty at other levels and without SASL.
   */
  public Optional<SaslPrivacy> privacy() {
    return Optional.ofNullable(privacy);
  }

  /**
   * The cipher a DIGEST-MD5 {@code auth-conf} connection encrypts with ({@code 3des}, {@code rc4}, ...), as the
   * client's response named it (escape it with {@link PeerText#sanitize} before logging it); empty for other
   * mechanisms and levels.
   */
  public Optional<String> saslCipher() {
    return Optional.ofNullable(saslCipher);
  }

  /** The strength of {@link #saslCipher()}; empty when there is no such cipher. */
  public Optional<CipherStrength> saslStrength() {
    return Optional.ofNullable(saslStrength);
  }

  /** The negotiated TLS version, such as {@code TLSv1.3}. */
  public Optional<String> tlsProtocol() {
    return Optional.ofNullable(tlsProtocol);
  }

  public Optional<String> tlsCipherSuite() {
    return Optional.ofNullable(tlsCipherSuite);
  }

  /** Whether the TLS handshake resumed an earlier session instead of a full key exchange. */
  public boolean tlsSessionResumed() {
    return tlsSessionResumed;
  }

  /** The peer's verified certificate chain, leaf first; empty when it sent none. */
  public List<X509Certificate> peerCertificates() {
    return peerCertificates;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("PeerIdentity[").append(mode).append(' ').append(remoteAddress);
    if (principal != null) {
      // Services log identities; a principal is whatever name a peer's certificate or token carries.
      s.append(" principal=").append(PeerText.sanitize(principal));
    }
    if (mechanism != null) {
      s.append(' ').append(mechanism).append(' ').append(qop);
      if (privacy != null) {
        s.append('/').append(privacy);
      }
    }
    if (saslCipher != null) {
      s.append(" cipher=").append(PeerText.sanitize(saslCipher)).append(" strength=").append(saslStrength);
    }
    if (tlsProtocol != null) {
      s.append(' ').append(tlsProtocol).append(' ').append(tlsCipherSuite).append(tlsSessionResumed ? " resumed" : "");
    }
    return s.append(']').toString();
  }

  /**
   * The capability to create identities. An identity is what a service trusts to say who called it, so no code may
   * fabricate one: there is exactly one issuer, and core passes it only to the TLS and SASL layers it loads
   * through {@link io.securethrift.core.spi.LayerProvider}. A layer module keeps it in its layers, never in a static
   * field or anywhere else other code can reach.
   */
  public static final class Issuer {
    private Issuer() {}

    /** A new identity for a connection from {@code remoteAddress}, secured by {@code mode}. */
    public Builder builder(SecurityMode mode, InetSocketAddress remoteAddress) {
      return PeerIdentity.builder(mode, remoteAddress);
    }

    /** A builder starting from {@code identity}, for a layer that adds what it learned (SASL over TLS). */
    public Builder from(PeerIdentity identity) {
      return identity.toBuilder();
    }
  }

  /** Builds a {@link PeerIdentity}; only an {@link Issuer} makes one. */
  public static final class Builder {
    private final SecurityMode mode;
    private final InetSocketAddress remoteAddress;
    private String principal;
    private String mechanism;
    private QualityOfProtection qop;
    private SaslPrivacy privacy;
    private String saslCipher;
    private CipherStrength saslStrength;
    private String tlsProtocol;
    private String tlsCipherSuite;
    private boolean tlsSessionResumed;
    private List<X509Certificate> peerCertificates = List.of();
    private X509Certificate tlsServerCertificate;
    private Instant ticketEnd;

    private Builder(SecurityMode mode, InetSocketAddress remoteAddress) {
      this.mode = Objects.requireNonNull(mode);
      this.remoteAddress = remoteAddress;
    }

    /** The authenticated name; default none, for a connection that authenticated nobody. */
    public Builder principal(String principal) {
      this.principal = principal;
      return this;
    }

    /** The SASL mechanism and the QOP negotiated; default none, for a connection without SASL. */
    public Builder sasl(String mechanism, QualityOfProtection qop) {
      this.mechanism = mechanism;
      this.qop = qop;
      return this;
    }

    /** How an {@code auth-conf} connection encrypts: {@code gss} or {@code aes-gcm}; default none. */
    public Builder privacy(SaslPrivacy privacy) {
      this.privacy = privacy;
      return this;
    }

    /** The cipher and its strength, for a DIGEST-MD5 {@code auth-conf} connection. */
    public Builder saslCipher(String cipher, CipherStrength strength) {
      this.saslCipher = cipher;
      this.saslStrength = strength;
      return this;
    }

    /** The TLS session's facts and the peer's certificates; default none, for a connection without TLS. */
    public Builder tls(String protocol, String cipherSuite, boolean resumed, List<X509Certificate> certificates) {
      this.tlsProtocol = protocol;
      this.tlsCipherSuite = cipherSuite;
      this.tlsSessionResumed = resumed;
      this.peerCertificates = List.copyOf(certificates);
      return this;
    }

    public PeerIdentity build() {
      return new PeerIdentity(this);
    }
  }
}
