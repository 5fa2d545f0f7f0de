package io.securethrift.ingest.accumulo;

import java.io.IOException;
import java.util.Map;
import java.util.Properties;
import org.apache.accumulo.core.conf.ClientProperty;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Turns on Kerberos in this JVM's Hadoop {@link UserGroupInformation} and logs in from the client file's keytab
 * while Kerberized targets run: Accumulo's client opens SASL connections as UGI's login user and refuses to connect
 * without one. UGI's state is JVM-wide, so it is counted and reset when the last Kerberized target closes, leaving
 * the JVM as it was.
 */
final class HadoopKerberosClient implements AutoCloseable {
  private static int users;
  private boolean closed;

  private HadoopKerberosClient() {}

  /** Logs in as {@code auth.principal} from the keytab in {@code auth.token} of an {@code auth.type=kerberos} file. */
  static HadoopKerberosClient login(Properties clientProperties) throws IOException {
    return login(clientProperties, Map.of());
  }

  /**
   * Logs in as {@link #login(Properties)} does, with {@code hadoop} settings for UGI (such as how soon it may log in
   * again); they take effect when no other Kerberized target is open, since UGI's configuration is JVM-wide.
   */
  static synchronized HadoopKerberosClient login(Properties clientProperties, Map<String, String> hadoop)
      throws IOException {
    String principal = clientProperties.getProperty(ClientProperty.AUTH_PRINCIPAL.getKey());
    String keytab = clientProperties.getProperty(ClientProperty.AUTH_TOKEN.getKey());
    if (!"kerberos".equals(clientProperties.getProperty(ClientProperty.AUTH_TYPE.getKey())) || principal == null
        || keytab == null) {
      throw new IOException("a SASL client needs auth.type=kerberos with auth.principal and auth.token (a keytab)");
    }
    if (users == 0) {
      Configuration conf = new Configuration(false);
      conf.set("hadoop.security.authentication", "kerberos");
      hadoop.forEach(conf::set);
      UserGroupInformation.setConfiguration(conf);
    }
    users++;
    HadoopKerberosClient handle = new HadoopKerberosClient();
    try {
      UserGroupInformation.loginUserFromKeytab(principal, keytab);
    } catch (IOException | RuntimeException e) {
      handle.close();
      throw e;
    }
    return handle;
  }

  @Override
  public void close() {
    synchronized (HadoopKerberosClient.class) {
      if (closed) {
        return;
      }
      closed = true;
      users--;
      if (users == 0) {
        UserGroupInformation.reset();
      }
    }
  }
}
