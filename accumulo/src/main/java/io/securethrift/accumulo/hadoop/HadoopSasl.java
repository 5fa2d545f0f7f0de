package io.securethrift.accumulo.hadoop;

import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.transport.TTransportException;

/**
 * securethrift SASL (GSSAPI) connections for processes that manage Kerberos through Hadoop's
 * {@link UserGroupInformation}. Build the factory's configuration without {@code securethrift.sasl.kerberos.principal}
 * so the SASL layer runs as the caller's login instead of its own keytab login.
 *
 * <p>A proxy user ({@link UserGroupInformation#createProxyUser}) connects with its real user's credentials, as
 * Accumulo 1.7 and 2.x clients do: the SASL principal is the real user's, and the proxy user's name travels in the
 * request ({@link #requestUser}); the server accepts it only if its impersonation rules allow the real user to act
 * as that user.
 */
public final class HadoopSasl {
  private HadoopSasl() {}

  /** Logs in from a keytab through UGI without replacing the process's login user. */
  public static UserGroupInformation loginFromKeytab(String principal, Path keytab) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      throw new IllegalStateException("Hadoop security is off (hadoop.security.authentication is not kerberos in"
          + " the Configuration UGI uses), so UGI cannot log in " + principal + " from a keytab");
    }
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab.toString());
  }

  /** Opens a connection as {@code user}, or as its real user when {@code user} is a proxy user. */
  public static SecuredTransport open(ClientTransportFactory factory, UserGroupInformation user, String host,
      int port) throws TTransportException {
    UserGroupInformation authenticated = user.getRealUser() != null ? user.getRealUser() : user;
    try {
      return authenticated.doAs((PrivilegedExceptionAction<SecuredTransport>) () -> factory.open(host, port));
    } catch (UndeclaredThrowableException e) {
      if (e.getCause() instanceof TTransportException) {
        throw (TTransportException) e.getCause();
      }
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TTransportException(TTransportException.UNKNOWN, "interrupted while connecting to " + host, e);
    } catch (IOException e) {
      throw new TTransportException(TTransportException.NOT_OPEN, "cannot connect to " + host + ":" + port + " as "
          + authenticated.getUserName() + ": " + e.getMessage(), e);
    }
  }

  /** The user a request names: the proxy user's short name for a proxy, else the user's own name. */
  public static String requestUser(UserGroupInformation user) {
    return user.getUserName();
  }
}
