package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslChannelBinding;
import io.securethrift.core.SaslPrivacy;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.MessageProp;
import org.ietf.jgss.Oid;

/**
 * securethrift's GSSAPI SASL client (RFC 4752) on {@code org.ietf.jgss} alone, so it runs where the JDK's mechanism
 * (module {@code jdk.security.jgss}) is missing. On the wire it is the JDK's client: the same Kerberos tokens (mutual
 * authentication always requested), the same security layer choice, the same authorization id. Credentials come
 * from the caller's {@code Subject} when the context starts, as with the JDK's mechanism, or from a
 * {@link GSSCredential} in {@code javax.security.sasl.credentials}.
 *
 * <p>When the server offers {@link SecurityLayer#AES_GCM} and this client may use it ({@code securethrift.sasl.privacy}
 * other than {@code gss}, {@code auth-conf} among its levels), its choice carries an X25519 share and a secret, and it
 * completes only on the server's key reply; {@code javax.security.sasl.qop} then reports {@code auth-conf} and
 * {@code securethrift.sasl.privacy} {@code aes-gcm}.
 */
final class GssapiClient extends GssapiMechanism implements SaslClient {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] EMPTY = new byte[0];

  private enum Stage { CONTEXT, OFFER, KEY_REPLY, COMPLETE }

  private final GssapiProperties props;
  private final String authorizationId;
  private final GSSContext context;
  private Stage stage = Stage.CONTEXT;
  /** While the key reply is awaited: this side's key pair and secret, and the two messages the keys are bound to. */
  private KeyPair keyPair;
  private byte[] secret;
  private byte[] offer;
  private byte[] choice;
  private int serverMaxBuffer;

  GssapiClient(String authorizationId, String protocol, String serverName, Map<String, ?> properties)
      throws SaslException {
    this.props = GssapiProperties.of(properties);
    this.authorizationId = authorizationId == null || authorizationId.isEmpty() ? null : authorizationId;
    try {
      GSSManager manager = GSSManager.getInstance();
      Oid krb5 = Krb5Contexts.MECHANISM;
      GSSName acceptor = manager.createName(protocol + "@" + serverName, GSSName.NT_HOSTBASED_SERVICE, krb5);
      Object credential = properties == null ? null : properties.get(Sasl.CREDENTIALS);
      GSSCredential delegated = credential instanceof GSSCredential ? (GSSCredential) credential : null;
      context = manager.createContext(acceptor, krb5, delegated, GSSContext.INDEFINITE_LIFETIME);
      if (delegated != null) {
        context.requestCredDeleg(true);
      }
      context.requestMutualAuth(true);
      context.requestConf(true);
      context.requestInteg(true);
      context.requestSequenceDet(true);
      context.requestReplayDet(true);
    } catch (GSSException e) {
      throw new SaslException("cannot start a Kerberos context for " + protocol + "@" + serverName + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public boolean hasInitialResponse() {
    return true;
  }

  @Override
  public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
    byte[] token = challenge == null ? EMPTY : challenge;
    switch (stage) {
      case CONTEXT:
        return establish(token);
      case OFFER:
        return choose(token);
      case KEY_REPLY:
        return finishKeys(token);
      default:
        throw new IllegalStateException("GSSAPI authentication already complete");
    }
  }

  private byte[] establish(byte[] token) throws SaslException {
    byte[] out;
    try {
      out = context.initSecContext(token, 0, token.length);
    } catch (GSSException e) {
      throw new SaslException("GSS initiate failed: " + e.getMessage(), e);
    }
    if (context.isEstablished()) {
      if (!context.getMutualAuthState()) {
        throw new SaslException("the Kerberos context completed without authenticating the server");
      }
      stage = Stage.OFFER;
    }
    return out == null ? EMPTY : out;
  }

  /** The server's offer in, this client's choice out. */
  private byte[] choose(byte[] token) throws SaslException {
    offer = unwrapNegotiation(token, "security layer offer");
    SecurityLayer.Offer parsed = SecurityLayer.parseOffer(offer);
    serverMaxBuffer = parsed.maxBuffer;
    int chosen = chooseLayer(parsed.layers);
    byte[] binding = binding(parsed.layers);
    if (chosen == SecurityLayer.AES_GCM) {
      keyPair = GcmKeys.generate();
      secret = new byte[SecurityLayer.SECRET];
      RANDOM.nextBytes(secret);
      byte[] plain = SecurityLayer.gcmChoice(props.maxBuffer, GcmKeys.share(keyPair), secret, binding,
          authorizationId);
      choice = plain;
      stage = Stage.KEY_REPLY;
      // Encrypted: the secret must stay as secret as the session key.
      return wrapNegotiation(plain, true);
    }
    int ownMax = chosen == SecurityLayer.NONE ? 0 : props.maxBuffer;
    byte[] plain = SecurityLayer.choice(chosen, ownMax, binding, authorizationId);
    complete(GssLayer.standard(context, chosen, ownMax, serverMaxBuffer));
    stage = Stage.COMPLETE;
    return wrapNegotiation(plain, false);
  }

  /**
   * The channel binding this client sends: its own when the server offers to check one, which its offer, wrapped by
   * the Kerberos context, says unalterably. Under {@code require} a server that does not check is refused, since
   * this client's authentication could then be relayed to it.
   */
  private byte[] binding(int offered) throws SaslException {
    boolean checked = (offered & SecurityLayer.CHANNEL_BINDING) != 0;
    if (props.channelBinding == SaslChannelBinding.REQUIRE && (!checked || props.binding == null)) {
      String key = GssapiProperties.CHANNEL_BINDING;
      throw new ChannelBindingException("the server does not check channel binding (it is not securethrift, or runs"
          + " with " + key + "=off or without TLS), and " + key + "=require on this client; set prefer here, or"
          + " enable binding on the server");
    }
    return checked ? props.binding : null;
  }

  /** The first of this client's levels the server offers and the context supports; AES-GCM for auth-conf if it may. */
  private int chooseLayer(int offered) throws SaslException {
    for (QualityOfProtection q : props.qop) {
      int bit = SecurityLayer.bit(q);
      if (q == QualityOfProtection.AUTH_CONF) {
        if (!context.getConfState()) {
          continue;
        }
        if ((offered & SecurityLayer.AES_GCM) != 0 && props.speaksAesGcm()) {
          return SecurityLayer.AES_GCM;
        }
        if ((offered & bit) != 0 && props.privacy == SaslPrivacy.AES_GCM) {
          throw new SaslException("the server offers auth-conf only with GSS wrapping, and securethrift.sasl.privacy"
              + "=aes-gcm on this client requires AES-GCM; set aes-gcm-preferred here, or install securethrift's SASL"
              + " provider on the server");
        }
      }
      if (q == QualityOfProtection.AUTH_INT && !context.getIntegState()) {
        continue;
      }
      if ((offered & bit) != 0) {
        return bit;
      }
    }
    String refusal = QopLists.noCommonLevel(props.qop, SecurityLayer.describe(offered));
    if ((offered & SecurityLayer.AES_GCM) != 0 && props.qop.contains(QualityOfProtection.AUTH_CONF)) {
      // The server requires AES-GCM (securethrift.sasl.privacy=aes-gcm there), and this client cannot use it.
      refusal += "; the server requires AES-GCM for auth-conf, which this client does not use ("
          + GssLayer.PRIVACY + "=" + props.privacy + (GcmKeys.available() ? "" : ", and this Java runtime has no"
          + " X25519") + "): set aes-gcm-preferred here, or aes-gcm-preferred on the server";
    }
    throw new SaslException(refusal);
  }

  private byte[] finishKeys(byte[] token) throws SaslException {
    byte[] reply = unwrapNegotiation(token, "AES-GCM key reply");
    byte[] serverShare = SecurityLayer.replyShare(reply);
    GcmKeys keys = GcmKeys.derive(keyPair.getPrivate(), serverShare, secret, offer, choice, serverShare);
    Arrays.fill(secret, (byte) 0);
    keyPair = null;
    if (!keys.confirms(SecurityLayer.confirmation(reply))) {
      throw new SaslException("the server's AES-GCM key confirmation does not match this exchange");
    }
    complete(GssLayer.aesGcm(context, props.maxBuffer, serverMaxBuffer, keys.clientToServer, keys.serverToClient,
        props.cipherProvider));
    stage = Stage.COMPLETE;
    return null;
  }

  private byte[] unwrapNegotiation(byte[] token, String what) throws SaslException {
    try {
      return context.unwrap(token, 0, token.length, new MessageProp(0, false));
    } catch (GSSException e) {
      throw new SaslException("the server's " + what + " failed its GSS check: " + e.getMessage(), e);
    }
  }

  private byte[] wrapNegotiation(byte[] plain, boolean confidential) throws SaslException {
    try {
      return context.wrap(plain, 0, plain.length, new MessageProp(0, confidential));
    } catch (GSSException e) {
      throw new SaslException("GSSAPI wrap of the security layer choice failed: " + e.getMessage(), e);
    }
  }

  @Override
  GSSContext context() {
    return context;
  }
}
