package io.securethrift.sasl;

import io.securethrift.core.DelegationToken;
import java.util.Base64;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.RealmCallback;

/**
 * Answers the JDK's DIGEST-MD5 client the way Accumulo's clients do: user name Base64(token identifier), password
 * Base64(token secret), the server's realm accepted as offered.
 */
final class DigestClientCallbacks implements CallbackHandler {
  private final DelegationToken token;

  DigestClientCallbacks(DelegationToken token) {
    this.token = token;
  }

  @Override
  public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
    for (Callback callback : callbacks) {
      if (callback instanceof NameCallback) {
        ((NameCallback) callback).setName(Base64.getEncoder().encodeToString(token.identifier()));
      } else if (callback instanceof PasswordCallback) {
        ((PasswordCallback) callback)
            .setPassword(Base64.getEncoder().encodeToString(token.password()).toCharArray());
      } else if (callback instanceof RealmCallback) {
        RealmCallback realm = (RealmCallback) callback;
        realm.setText(realm.getDefaultText());
      } else {
        throw new UnsupportedCallbackException(callback, "DIGEST-MD5 client callback not supported");
      }
    }
  }
}
