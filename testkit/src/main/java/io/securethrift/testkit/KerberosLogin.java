package io.securethrift.testkit;

import java.util.Objects;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * Logs principals of an {@link EmbeddedKdc} in through JAAS {@code Krb5LoginModule} and returns the
 * authenticated {@link Subject}, for use with {@code Subject.doAs} around GSS-API or SASL code.
 *
 * <p>The JAAS configuration is built in code for every call, so nothing JVM-wide besides the
 * KDC's {@code java.security.krb5.conf} is involved. Each login also passes {@code
 * refreshKrb5Config=true}, though {@link EmbeddedKdc} already makes the JDK re-read krb5.conf when
 * it starts.
 */
public final class KerberosLogin {

  private static final String APPLICATION = "securethrift-test";

  private KerberosLogin() {}

  /**
   * Makes the JDK re-read the krb5.conf {@code java.security.krb5.conf} names, now. The JDK reads it once per JVM and
   * keeps it; {@link EmbeddedKdc} calls this when it starts. Call it after starting another KDC, such as Hadoop's
   * MiniKdc, in a JVM where an earlier KDC ran, unless every login there passes {@code refreshKrb5Config=true}.
   *
   * @throws IllegalStateException if the JDK cannot read that krb5.conf
   */
  public static void reloadKrb5Conf() {
    Krb5LoginConfiguration.refreshJdkConfiguration();
  }

  /**
   * Logs in from the identity's keytab as an initiator: the subject gets a TGT (a {@code
   * KerberosTicket}) and, because {@code storeKey=true}, the keytab, so it can act as client and
   * as service.
   */
  public static Subject login(KerberosIdentity identity) throws LoginException {
    return login(identity, true);
  }

  /**
   * Logs in from the identity's keytab. With {@code initiator=false} the KDC is not contacted and
   * the subject only holds the keytab: enough to accept GSS contexts as a service.
   */
  public static Subject login(KerberosIdentity identity, boolean initiator) throws LoginException {
    Objects.requireNonNull(identity, "identity");
    LoginContext context =
        new LoginContext(
            APPLICATION,
            new Subject(),
            callbacks -> {
              throw new UnsupportedCallbackException(callbacks[0], "keytab login does not prompt");
            },
            Krb5LoginConfiguration.keytab(identity, initiator));
    context.login();
    return context.getSubject();
  }

  /**
   * Logs in with a password, for tests of principals made with {@link
   * EmbeddedKdc#principalWithPassword}. A wrong password fails with a {@link LoginException}.
   */
  public static Subject loginWithPassword(String principal, char[] password)
      throws LoginException {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(password, "password");
    LoginContext context =
        new LoginContext(
            APPLICATION,
            new Subject(),
            callbacks -> answer(callbacks, principal, password),
            Krb5LoginConfiguration.password(principal));
    context.login();
    return context.getSubject();
  }

  private static void answer(Callback[] callbacks, String principal, char[] password)
      throws UnsupportedCallbackException {
    for (Callback callback : callbacks) {
      if (callback instanceof NameCallback) {
        ((NameCallback) callback).setName(principal);
      } else if (callback instanceof PasswordCallback) {
        ((PasswordCallback) callback).setPassword(password);
      } else {
        throw new UnsupportedCallbackException(callback);
      }
    }
  }
}
