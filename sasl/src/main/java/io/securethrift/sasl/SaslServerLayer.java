package io.securethrift.sasl;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.Limits;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SaslSettings;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.ImpersonationRules;
import io.securethrift.core.identity.KerberosName;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.spi.SaslNegotiator;
import io.securethrift.core.transport.SecuredTransport;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.Subject;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The server side of SASL for one configuration. Like an Accumulo server it accepts GSSAPI when it has a keytab
 * login and DIGEST-MD5 when it has delegation token secrets, whichever the client asks for; the configured mechanism
 * must be one of them. GSSAPI runs as the service principal of the login ({@code primary/host@REALM}); accepting
 * never logs in again, which is the renewal thread's job.
 */
final class SaslServerLayer implements MessageLayer {
  private final SaslSettings settings;
  private final Limits limits;
  /** Each mechanism's SASL properties, made once rather than for every connection. */
  private final Map<MechanismSupport, Map<String, Object>> properties;
  private final KeytabLogin login;
  private final String gssProtocol;
  private final String gssHost;
  private final DelegationTokenSecrets secrets;
  private final ProtectionWarnings warnings;
  private final PeerIdentity.Issuer identities;
  /** Whether a Kerberos client's service ticket end is read and recorded, for the server to close at it. */
  private final boolean closeAtTicketEnd;

  SaslServerLayer(SecurityConfig config, PeerIdentity.Issuer identities) {
    this.identities = identities;
    this.settings = config.sasl();
    this.limits = config.limits();
    // Parsed here only to fail at start-up on a typo; the service parses its own copy to check each request.
    ImpersonationRules.from(config);
    this.properties = Map.of(MechanismSupport.GSSAPI, MechanismSupport.GSSAPI.properties(settings),
        MechanismSupport.DIGEST_MD5, MechanismSupport.DIGEST_MD5.properties(settings));
    this.secrets = settings.delegationTokenSecrets().orElse(null);
    this.closeAtTicketEnd = config.server().closeAtTicketEnd();
    boolean kerberos = MechanismSupport.of(settings.mechanism()).kerberos();
    if (!kerberos && secrets == null) {
      throw new ConfigException(ConfigProperty.SASL_MECHANISM.key(), "DIGEST-MD5 servers need delegation token"
          + " secrets (SecurityConfig.Builder.delegationTokenSecrets)");
    }
    this.warnings = new ProtectionWarnings("server", config, secrets != null);
    if (settings.kerberosKeytab().isEmpty()) {
      if (kerberos) {
        throw new ConfigException(ConfigProperty.SASL_KERBEROS_KEYTAB.key(), "empty, but GSSAPI servers log in"
            + " from a keytab; set it and " + ConfigProperty.SASL_KERBEROS_PRINCIPAL.key());
      }
      this.login = null;
      this.gssProtocol = null;
      this.gssHost = null;
      return;
    }
    // Before the login, so a server that cannot run never reads its keytab.
    SaslFactories.server(MechanismSupport.GSSAPI, ConfigProperty.SASL_KERBEROS_KEYTAB.key(),
        "set, so this server accepts GSSAPI");
    if (closeAtTicketEnd && !kerbyPresent()) {
      throw new ConfigException(ConfigProperty.SERVER_KERBEROS_CLOSE_AT_TICKET_END.key(), "true, but Apache Kerby's"
          + " crypto (org.apache.kerby:kerb-crypto) is not on this server's class path (on the module path: not"
          + " resolved, add --add-modules kerb.crypto): the JDK does not tell a Kerberos acceptor when a client's"
          + " service ticket ends, so securethrift reads the ticket with Kerby; add it, or set false to keep"
          + " connections past their ticket");
    }
    KerberosName principal = KerberosName.parse(settings.kerberosPrincipal().orElseThrow())
        .withHostExpanded();
    String name = principal.toString();
    this.gssProtocol = principal.primary();
    this.gssHost = principal.instance().orElseGet(() -> settings.serverHost().orElseGet(SaslServerLayer::localHost));
    // An acceptor-only login: the keytab's keys, no ticket, no KDC. Closed again if the check below fails.
    this.login = KeytabLogin.acceptor(name, settings.kerberosKeytab().get());
    try {
      checkAcceptor();
    } catch (RuntimeException e) {
      login.close();
      throw e;
    }
  }

  /**
   * Creates and disposes one GSSAPI acceptor, so a login that cannot accept (its keytab holds no key for
   * {@code gssProtocol/gssHost}, as with a user principal) fails at start-up naming the principal, instead of
   * refusing every Kerberos client later.
   */
  private void checkAcceptor() {
    try {
      gssServer(acceptorSubject(), properties.get(MechanismSupport.GSSAPI)).dispose();
    } catch (SaslException e) {
      throw ConfigException.escaped(ConfigProperty.SASL_KERBEROS_PRINCIPAL.key(), PeerText.sanitize(login.principal()
          + " cannot accept Kerberos connections as " + gssProtocol + "/" + gssHost) + ": " + PeerText.describe(e)
          + "; a server logs in as its service principal primary/host@REALM, with the host spelled as clients address"
          + " it", ConfigException.BUILDER);
    }
  }

  private SaslServer gssServer(Subject subject, Map<String, Object> gssProperties) throws SaslException {
    MechanismSupport gssapi = MechanismSupport.GSSAPI;
    return SaslEndpoint.as(subject, () -> gssapi.serverFactory().createSaslServer(gssapi.name(), gssProtocol,
        gssHost, gssProperties, new ServerCallbacks(null)));
  }

  @Override
  public SecuredTransport open(TTransport stream, PeerIdentity streamIdentity, String host)
      throws TTransportException {
    String client = String.valueOf(streamIdentity.remoteAddress());
    Negotiated result = negotiation(new Negotiation(stream, limits), streamIdentity, client).run();
    return new SaslTransport(stream, data(result, streamIdentity, client), limits, Role.SERVER);
  }

  @Override
  public Optional<SaslNegotiator> negotiator(PeerIdentity streamIdentity, TTransport replies) {
    String client = String.valueOf(streamIdentity.remoteAddress());
    ServerNegotiation negotiation = negotiation(new Negotiation(replies, limits), streamIdentity, client);
    return Optional.of(new SaslNegotiator() {
      @Override
      public SaslDataCodec receive(byte status, byte[] payload) throws TTransportException {
        Negotiation.Message message;
        try {
          message = Negotiation.message(status, payload);
        } catch (TTransportException e) {
          throw negotiation.failure(e);
        }
        Negotiated result = negotiation.step(message);
        return result == null ? null : data(result, streamIdentity, client);
      }

      @Override
      public TTransportException refuse(TTransportException unreadable) {
        return negotiation.failure(unreadable);
      }

      @Override
      public void dispose() {
        negotiation.dispose();
      }
    });
  }

  private ServerNegotiation negotiation(Negotiation negotiation, PeerIdentity streamIdentity, String client) {
    return new ServerNegotiation(negotiation, settings.qop(), settings.digestMinStrength(), client,
        name -> create(name, streamIdentity));
  }

  /**
   * The data phase of a completed negotiation, with the identity before and after a privacy key exchange; releases
   * the mechanism if it cannot be set up. {@code aes-gcm} refuses a level below {@code auth-conf}, which the client's
   * list may have forced.
   */
  private SaslData data(Negotiated result, PeerIdentity streamIdentity, String client) throws TTransportException {
    warnings.negotiated(result.qop(), client);
    try {
      boolean conf = result.qop() == QualityOfProtection.AUTH_CONF;
      if (settings.privacy() == SaslPrivacy.AES_GCM && !conf) {
        String key = ConfigProperty.SASL_PRIVACY.key();
        throw new TTransportException(TTransportException.UNKNOWN, "the client from " + client + " negotiated "
            + result.qop() + ", but " + key + "=aes-gcm requires auth-conf; remove the lower levels from the"
            + " client's securethrift.sasl.qop, or set " + key + "=aes-gcm-preferred on this server");
      }
      PeerIdentity.Builder identity = result.describe(identities.from(streamIdentity).principal(principal(result)));
      Optional<byte[]> apRequest = result.endpoint().apRequest();
      if (closeAtTicketEnd && apRequest.isPresent()) {
        SharedAccess.ticketEnd().record(identity, ticketEnd(apRequest.get(), client));
      }
      PeerIdentity gss = identity.privacy(conf ? SaslPrivacy.GSS : null).build();
      PeerIdentity gcm = identity.privacy(SaslPrivacy.AES_GCM).build();
      return SaslData.server(result.endpoint(), gss, gcm, limits, settings.privacy(),
          settings.privacyProvider().orElse(null));
    } catch (TTransportException | RuntimeException e) {
      result.endpoint().dispose();
      throw e;
    }
  }

  /**
   * The server mechanism the client named, or null when this server does not offer it; GSSAPI bound to the TLS
   * connection of {@code streamIdentity}, if it has one.
   */
  private SaslEndpoint create(String name, PeerIdentity streamIdentity) throws SaslException {
    MechanismSupport mechanism = MechanismSupport.named(name).orElse(null);
    if (mechanism == null || (mechanism.kerberos() ? login == null : secrets == null)) {
      return null;
    }
    if (mechanism.kerberos()) {
      Subject subject = acceptorSubject();
      return SaslEndpoint.server(gssServer(subject, GssapiProperties.withBinding(properties.get(mechanism),
          settings.channelBinding(), SharedAccess.tlsServerCertificate().of(streamIdentity))), subject);
    }
    SaslServerFactory factory = mechanism.serverFactory();
    if (factory == null) {
      return null;
    }
    // "*" accepts the digest-uri for whatever name the client dialled, as Accumulo servers behind aliases need.
    return SaslEndpoint.server(factory.createSaslServer(name, settings.serverPrimary(),
        settings.serverHost().orElse("*"), properties.get(mechanism), new ServerCallbacks(secrets)), null);
  }

  /**
   * When the service ticket a Kerberos client authenticated with ends; a ticket whose end cannot be read (the JDK has
   * accepted it, so this is not expected) refuses the connection rather than keep it for any age.
   */
  private Instant ticketEnd(byte[] apRequest, String client) throws TTransportException {
    try {
      return ServiceTicketEnd.of(apRequest, acceptorSubject());
    } catch (SaslException e) {
      throw new TTransportException(TTransportException.UNKNOWN, "refused the Kerberos client from " + client + ": "
          + PeerText.describe(e) + ", so " + ConfigProperty.SERVER_KERBEROS_CLOSE_AT_TICKET_END.key()
          + "=true cannot close its connection when the ticket ends", e);
    }
  }

  /** Whether Kerby's Kerberos crypto can be loaded, which {@link ServiceTicketEnd} reads tickets with. */
  private static boolean kerbyPresent() {
    try {
      Class.forName("org.apache.kerby.kerberos.kerb.crypto.EncryptionHandler", false,
          SaslServerLayer.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * What GSSAPI negotiations accept as: the acceptor login's subject, the principal and its keytab and no ticket.
   * Accepting needs only the keytab's keys, never the KDC, so an unreachable KDC keeps no client with a valid service
   * ticket out.
   */
  Subject acceptorSubject() {
    return login.subject();
  }

  /**
   * The authenticated name: {@code user@REALM} for GSSAPI; for DIGEST-MD5 the token's owner when the secrets can
   * tell it ({@link DelegationTokenSecrets#ownerOf}), else the Base64 token identifier the client presented.
   */
  private String principal(Negotiated result) {
    return MechanismSupport.named(result.mechanism()).orElseThrow()
        .principal(result.endpoint().authorizationId(), secrets);
  }

  private static String localHost() {
    try {
      return KerberosName.localHostName();
    } catch (UncheckedIOException e) {
      throw new ConfigException(ConfigProperty.SASL_SERVER_HOST.key(), "empty and the local host name is unknown;"
          + " set it to the host part of the service principal");
    }
  }

  @Override
  public void close() {
    if (login != null) {
      login.close();
    }
  }
}
