package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslChannelBinding;
import io.securethrift.core.SaslPrivacy;
import java.io.IOException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.MessageProp;

/**
 * securethrift's GSSAPI SASL server (RFC 4752) on {@code org.ietf.jgss} alone; on the wire it is the JDK's server.
 * Its acceptor credential is taken from the caller's {@code Subject} when it is created (a null server name accepts
 * any service principal the subject holds keys for), as with the JDK's mechanism. The callback handler is asked to
 * authorize the authorization id with an {@link AuthorizeCallback}; without one, a client may only act as itself.
 *
 * <p>At {@code auth-conf} with {@code securethrift.sasl.privacy} other than {@code gss} the offer also carries
 * {@link SecurityLayer#AES_GCM}; under {@code aes-gcm} it carries it instead of GSS confidentiality, so a client that
 * cannot speak AES-GCM finds no common layer.
 */
final class GssapiServer extends GssapiMechanism implements SaslServer {
  private static final byte[] EMPTY = new byte[0];

  private enum Stage { CONTEXT, CLIENT_EMPTY, CHOICE, COMPLETE }

  private final GssapiProperties props;
  private final CallbackHandler callbacks;
  private final GSSContext context;
  private Stage stage = Stage.CONTEXT;
  private byte[] offer;
  private int offered;
  private String peer;
  private String authorizationId;
  /** The client's AP-REQ, from its first context token: the service ticket it authenticated with. */
  private byte[] apRequest;

  GssapiServer(String protocol, String serverName, Map<String, ?> properties, CallbackHandler callbacks)
      throws SaslException {
    this.props = GssapiProperties.of(properties);
    this.callbacks = callbacks;
    String name = serverName == null ? null : protocol + "@" + serverName;
    try {
      GSSManager manager = GSSManager.getInstance();
      GSSName acceptor = name == null ? null
          : manager.createName(name, GSSName.NT_HOSTBASED_SERVICE, Krb5Contexts.MECHANISM);
      GSSCredential credential = manager.createCredential(acceptor, GSSCredential.INDEFINITE_LIFETIME,
          Krb5Contexts.MECHANISM, GSSCredential.ACCEPT_ONLY);
      context = manager.createContext(credential);
    } catch (GSSException e) {
      throw new SaslException(e.getMessage() + " (Kerberos acceptor "
          + (name == null ? "for any service" : name) + ")", e);
    }
  }

  @Override
  public byte[] evaluateResponse(byte[] response) throws SaslException {
    byte[] token = response == null ? EMPTY : response;
    switch (stage) {
      case CONTEXT:
        return accept(token);
      case CLIENT_EMPTY:
        // The client's answer to the last context token carries nothing (RFC 4752 section 3.1).
        if (token.length != 0) {
          throw new SaslException("the client sent " + token.length + " bytes where RFC 4752 expects an empty"
              + " response to the server's last context token");
        }
        return offer();
      case CHOICE:
        return takeChoice(token);
      default:
        throw new IllegalStateException("GSSAPI authentication already complete");
    }
  }

  private byte[] accept(byte[] token) throws SaslException {
    if (apRequest == null) {
      apRequest = GssTokens.apRequest(token);
    }
    byte[] out;
    try {
      out = context.acceptSecContext(token, 0, token.length);
    } catch (GSSException e) {
      throw new SaslException("GSS accept failed: " + e.getMessage(), e);
    }
    if (!context.isEstablished()) {
      return out == null ? EMPTY : out;
    }
    try {
      peer = context.getSrcName().toString();
    } catch (GSSException e) {
      throw new SaslException("cannot name the Kerberos client: " + e.getMessage(), e);
    }
    if (out != null && out.length > 0) {
      stage = Stage.CLIENT_EMPTY;
      return out;
    }
    return offer();
  }

  private byte[] offer() throws SaslException {
    offered = offeredLayers();
    boolean wraps = (offered & ~SecurityLayer.NONE) != 0;
    offer = SecurityLayer.offer(offered, wraps ? props.maxBuffer : 0);
    stage = Stage.CHOICE;
    try {
      return context.wrap(offer, 0, offer.length, new MessageProp(0, false));
    } catch (GSSException e) {
      throw new SaslException("GSSAPI wrap of the security layer offer failed: " + e.getMessage(), e);
    }
  }

  /** This server's levels the context supports, with AES-GCM beside (or, under aes-gcm, instead of) GSS privacy. */
  private int offeredLayers() throws SaslException {
    List<QualityOfProtection> levels = props.qop;
    int bits = SecurityLayer.bits(levels);
    if (!context.getConfState()) {
      bits &= ~SecurityLayer.CONFIDENTIALITY;
    }
    if (!context.getIntegState()) {
      bits &= SecurityLayer.NONE;
    }
    if ((bits & SecurityLayer.CONFIDENTIALITY) != 0 && props.speaksAesGcm()) {
      bits |= SecurityLayer.AES_GCM;
      if (props.privacy == SaslPrivacy.AES_GCM) {
        bits &= ~SecurityLayer.CONFIDENTIALITY;
      }
    }
    if (bits == 0) {
      throw new SaslException("the Kerberos context supports none of this server's levels " + levels);
    }
    return props.binding == null ? bits : bits | SecurityLayer.CHANNEL_BINDING;
  }

  private byte[] takeChoice(byte[] token) throws SaslException {
    byte[] plain;
    MessageProp prop = new MessageProp(0, false);
    try {
      plain = context.unwrap(token, 0, token.length, prop);
    } catch (GSSException e) {
      throw new SaslException("the client's security layer choice failed its GSS check: " + e.getMessage(), e);
    }
    SecurityLayer.Choice choice = SecurityLayer.parseChoice(plain, offered);
    checkBinding(choice.binding);
    authorize(choice.authorizationId);
    if (choice.layer != SecurityLayer.AES_GCM) {
      complete(GssLayer.standard(context, choice.layer, choice.layer == SecurityLayer.NONE ? 0 : props.maxBuffer,
          choice.maxBuffer));
      stage = Stage.COMPLETE;
      return null;
    }
    if (!prop.getPrivacy()) {
      throw new SaslException("the client's AES-GCM choice was not encrypted, so its secret is not secret");
    }
    KeyPair pair = GcmKeys.generate();
    byte[] share = GcmKeys.share(pair);
    GcmKeys keys = GcmKeys.derive(pair.getPrivate(), choice.share, choice.secret, offer, plain, share);
    complete(GssLayer.aesGcm(context, props.maxBuffer, choice.maxBuffer, keys.serverToClient, keys.clientToServer,
        props.cipherProvider));
    stage = Stage.COMPLETE;
    byte[] reply = SecurityLayer.keyReply(share, keys.confirmation);
    try {
      return context.wrap(reply, 0, reply.length, new MessageProp(0, false));
    } catch (GSSException e) {
      throw new SaslException("GSSAPI wrap of the AES-GCM key reply failed: " + e.getMessage(), e);
    }
  }

  /**
   * Refuses a client bound to another TLS connection, whatever the setting (its authentication was relayed: the TLS
   * server it reached presented another certificate than this one's), and under {@code require} one that sent no
   * binding. The choice is wrapped by the Kerberos context, so a relay can neither alter nor strip the binding.
   */
  private void checkBinding(byte[] clientBinding) throws SaslException {
    if (clientBinding != null) {
      if (!MessageDigest.isEqual(clientBinding, props.binding)) {
        throw new ChannelBindingException("channel binding mismatch: " + peer + " authenticated over a TLS connection"
            + " to another certificate than this server's, so a man in the middle is relaying its Kerberos"
            + " authentication");
      }
    } else if (props.channelBinding == SaslChannelBinding.REQUIRE) {
      throw new ChannelBindingException(peer + " sent no channel binding: it did not bind its Kerberos authentication"
          + " to the TLS connection"
          + (props.binding == null ? " (this server's TLS session shows no certificate to bind to)" : "")
          + ", and " + GssapiProperties.CHANNEL_BINDING + "=require on this server; upgrade the client to a"
          + " securethrift that binds, or set prefer here");
    }
  }

  /** The authorization id, the peer itself when absent, as the callback handler allows; refused otherwise. */
  private void authorize(String requested) throws SaslException {
    String asked = requested == null ? peer : requested;
    if (callbacks == null) {
      if (!asked.equals(peer)) {
        throw new SaslException(peer + " is not authorized to act as another identity");
      }
      authorizationId = peer;
      return;
    }
    AuthorizeCallback authorize = new AuthorizeCallback(peer, asked);
    try {
      callbacks.handle(new Callback[] {authorize});
    } catch (UnsupportedCallbackException | IOException e) {
      throw new SaslException("the server's callback handler cannot authorize " + peer + ": " + e.getMessage(), e);
    }
    if (!authorize.isAuthorized()) {
      throw new SaslException(peer + " is not authorized to act as the identity it asked for");
    }
    authorizationId = authorize.getAuthorizedID() != null ? authorize.getAuthorizedID() : asked;
  }

  @Override
  public String getAuthorizationID() {
    layer();
    return authorizationId;
  }

  /** The AP-REQ the client authenticated with, once it is complete; null if its first token held none. */
  byte[] apRequest() {
    layer();
    return apRequest;
  }

  @Override
  GSSContext context() {
    return context;
  }
}
