package io.securethrift.sasl;

import io.securethrift.core.DelegationTokenSecrets;
import java.util.Base64;
import java.util.Optional;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.SaslException;

/**
 * Answers a JDK SASL server for one connection: for DIGEST-MD5 it finds the token password through
 * {@link DelegationTokenSecrets}; for both mechanisms it authorizes a client only as itself (the authorization id
 * must be absent or equal to the authenticated id, since impersonation is decided per request by
 * {@link io.securethrift.core.identity.ImpersonationRules}, not by the SASL layer).
 */
final class ServerCallbacks implements CallbackHandler {
  private final DelegationTokenSecrets secrets;

  /** @param secrets the password look-up; null for GSSAPI */
  ServerCallbacks(DelegationTokenSecrets secrets) {
    this.secrets = secrets;
  }

  @Override
  public void handle(Callback[] callbacks) throws UnsupportedCallbackException, SaslException {
    String user = null;
    for (Callback callback : callbacks) {
      if (callback instanceof NameCallback) {
        user = ((NameCallback) callback).getDefaultName();
      }
    }
    for (Callback callback : callbacks) {
      if (callback instanceof AuthorizeCallback) {
        AuthorizeCallback authorize = (AuthorizeCallback) callback;
        String authz = authorize.getAuthorizationID();
        boolean self = authz == null || authz.equals(authorize.getAuthenticationID());
        authorize.setAuthorized(self);
        if (self) {
          authorize.setAuthorizedID(authorize.getAuthenticationID());
        }
      } else if (callback instanceof PasswordCallback) {
        ((PasswordCallback) callback).setPassword(password(user));
      } else if (callback instanceof RealmCallback) {
        RealmCallback realm = (RealmCallback) callback;
        realm.setText(realm.getDefaultText());
      } else if (!(callback instanceof NameCallback)) {
        throw new UnsupportedCallbackException(callback, "SASL server callback not supported");
      }
    }
  }

  private char[] password(String user) throws SaslException {
    if (secrets == null || user == null) {
      throw new SaslException("DIGEST-MD5 is not enabled on this server");
    }
    byte[] identifier;
    try {
      identifier = Base64.getDecoder().decode(user);
    } catch (IllegalArgumentException e) {
      throw new SaslException("DIGEST-MD5 user name is not a Base64 delegation token identifier");
    }
    Optional<byte[]> password = secrets.passwordFor(identifier);
    if (password.isEmpty()) {
      throw new UnknownTokenException();
    }
    return Base64.getEncoder().encodeToString(password.get()).toCharArray();
  }
}
