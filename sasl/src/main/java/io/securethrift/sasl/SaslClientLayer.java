package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SaslSettings;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.CallerSubject;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.transport.SecuredTransport;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The client side of SASL for one configuration: Accumulo's parameters (protocol = server primary, server name =
 * the configured or dialled host, optionally canonicalized; no authorization id; only {@code javax.security.sasl.qop}
 * set) and, for GSSAPI, the keytab login every negotiation runs as. Without a configured principal a GSSAPI client
 * runs as the caller's {@link Subject} at {@link #open} time (for example inside {@code Subject.doAs} or Hadoop's
 * {@code UserGroupInformation.doAs}), so processes that already manage their Kerberos login keep it.
 */
final class SaslClientLayer implements MessageLayer {
  /** What the JDK reports when the KDC knows no principal for the service a ticket was asked for. */
  private static final String UNKNOWN_SERVER = "Server not found in Kerberos database";

  private final SaslSettings settings;
  private final Limits limits;
  private final MechanismSupport mechanism;
  private final SaslClientFactory factory;
  private final Map<String, Object> properties;
  private final KeytabLogin login;
  private final CallbackHandler callbacks;
  private final ProtectionWarnings warnings;
  private final PeerIdentity.Issuer identities;
  private final ClientPrivacy privacy;

  SaslClientLayer(SecurityConfig config, PeerIdentity.Issuer identities) {
    this.identities = identities;
    this.settings = config.sasl();
    this.limits = config.limits();
    this.mechanism = MechanismSupport.of(settings.mechanism());
    this.factory = SaslFactories.client(mechanism, ConfigProperty.SASL_MECHANISM.key(), mechanism.name());
    this.properties = mechanism.properties(settings);
    this.callbacks = mechanism.clientCallbacks(settings);
    // Last: the login starts a renewal thread.
    this.login = !mechanism.kerberos() ? null : settings.kerberosPrincipal().map(principal -> KeytabLogin.initiator(
        principal, settings.kerberosKeytab().orElseThrow(), settings.renewalPeriod())).orElse(null);
    this.warnings = new ProtectionWarnings("client", config, !mechanism.offerProtected());
    this.privacy = new ClientPrivacy(settings.privacy(), limits);
  }

  @Override
  public SecuredTransport open(TTransport stream, PeerIdentity streamIdentity, String host)
      throws TTransportException {
    String serverName = serverName(host);
    Subject subject;
    try {
      subject = login != null ? login.subjectForConnection()
          : mechanism.kerberos() ? callerSubject() : null;
    } catch (KerberosLoginException e) {
      // Named like the other handshake failures, so a client of many servers knows which connection failed.
      throw new TTransportException(TTransportException.UNKNOWN, "handshake with " + host + ":"
          + streamIdentity.remoteAddress().getPort() + " failed: " + e.getMessage(), e);
    }
    if (subject != null) {
      ClientServiceTickets.dropEnding(subject, settings.serverPrimary(), serverName);
    }
    Map<String, Object> connection = !mechanism.kerberos() ? properties : GssapiProperties.withBinding(properties,
        settings.channelBinding(), SharedAccess.tlsServerCertificate().of(streamIdentity));
    SaslClient client;
    try {
      client = SaslEndpoint.as(subject, () -> factory.createSaslClient(new String[] {mechanism.name()},
          null, settings.serverPrimary(), serverName, connection, callbacks));
    } catch (SaslException e) {
      throw new EscapedTransportException(TTransportException.UNKNOWN, "cannot start SASL " + mechanism + " for "
          + serverName + ": " + PeerText.describe(e), e);
    }
    SaslEndpoint endpoint = SaslEndpoint.client(client, subject);
    try {
      Negotiated result = new ClientNegotiation(new Negotiation(stream, limits), endpoint, mechanism,
          settings.qop(), settings.digestMinStrength(), serverName).run(client.hasInitialResponse());
      warnings.negotiated(result.qop(), serverName);
      PrivacyExchange.Keys keys = privacy.exchange(stream, endpoint, result.qop(), streamIdentity.remoteAddress(),
          serverName);
      boolean conf = result.qop() == QualityOfProtection.AUTH_CONF;
      boolean gcm = keys != null || endpoint.aesGcm() != null;
      PeerIdentity.Builder identity = result.describe(identities.from(streamIdentity)
          .principal(settings.serverPrimary() + "/" + serverName))
          .privacy(!conf ? null : gcm ? SaslPrivacy.AES_GCM : SaslPrivacy.GSS);
      if (subject != null) {
        // The server closes the connection when this ticket ends; the client's transport renews it before.
        ClientServiceTickets.end(subject, settings.serverPrimary(), serverName)
            .ifPresent(end -> SharedAccess.ticketEnd().record(identity, end));
      }
      return new SaslTransport(stream, SaslData.client(endpoint, identity.build(), limits, keys,
          settings.privacyProvider().orElse(null)), limits, Role.CLIENT);
    } catch (TTransportException e) {
      endpoint.dispose();
      throw namingServicePrincipal(e, serverName);
    } catch (RuntimeException e) {
      endpoint.dispose();
      throw e;
    }
  }

  /**
   * The KDC's "Server not found in Kerberos database" names no principal: add the one this client asked a ticket for
   * and the settings that make it, the usual mistake being a primary or host other than the server's login.
   */
  private TTransportException namingServicePrincipal(TTransportException e, String serverName) {
    if (!mechanism.kerberos() || e.getMessage() == null
        || !e.getMessage().contains(UNKNOWN_SERVER)) {
      return e;
    }
    return new EscapedTransportException(e.getType(), PeerText.messageOf(e) + "; the KDC has no service principal "
        + settings.serverPrimary() + "/" + serverName + ", named by " + ConfigProperty.SASL_SERVER_PRIMARY.key()
        + " and the host dialled (or " + ConfigProperty.SASL_SERVER_HOST.key() + "): make them the primary and host"
        + " of the principal the server logs in as", e);
  }

  /** The caller's Kerberos subject; GSSAPI would otherwise fall back to a JAAS login that fails obscurely. */
  private static Subject callerSubject() {
    Subject subject = CallerSubject.current();
    if (subject == null || KeytabLogin.ticketGrantingTicket(subject) == null) {
      throw new KerberosLoginException("GSSAPI client without " + ConfigProperty.SASL_KERBEROS_PRINCIPAL.key()
          + " runs as the caller's Kerberos login, but the caller has none; set it and "
          + ConfigProperty.SASL_KERBEROS_KEYTAB.key() + ", or open the connection inside Subject.doAs or"
          + " UserGroupInformation.doAs of a logged-in subject");
    }
    return subject;
  }

  /** The host part of the server principal: configured, else the dialled host, canonicalized if asked to. */
  private String serverName(String host) throws TTransportException {
    String name = settings.serverHost().orElse(host);
    if (!settings.canonicalizeHostName()) {
      return name;
    }
    try {
      return InetAddress.getByName(name).getCanonicalHostName();
    } catch (UnknownHostException e) {
      throw new TTransportException(TTransportException.NOT_OPEN, "cannot canonicalize " + name + " ("
          + ConfigProperty.SASL_CANONICALIZE_HOSTNAME.key() + "): unknown host", e);
    }
  }

  @Override
  public void close() {
    if (login != null) {
      login.close();
    }
  }
}
