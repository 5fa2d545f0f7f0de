package io.securethrift.accumulo.mac;

import io.securethrift.testkit.KerberosIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.core.conf.ClientProperty;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Kerberized MiniAccumuloCluster settings: GSSAPI RPC with one QOP, servers logged in as a service principal from its
 * keytab, Kerberos users, and a user principal as the instance's root user (so it may create tables without further
 * grants), with client properties that log that user in from its keytab.
 */
public final class KerberizedCluster {
  private static final String HANDLERS = "org.apache.accumulo.server.security.handler.";

  private KerberizedCluster() {}

  /**
   * Sets the site and client properties, the {@code java.security.krb5.conf} system property of every server JVM,
   * and a {@code core-site.xml} that turns on Hadoop's Kerberos login in the servers.
   *
   * @param server the servers' principal ({@code primary/host@REALM}); clients get its primary as
   *     {@code sasl.kerberos.server.primary}
   * @param user the instance's root user, logged in by the client properties
   * @param krb5Conf the KDC's {@code krb5.conf}
   * @param qop the {@code rpc.sasl.qop} of servers and clients
   */
  public static void configure(MiniAccumuloConfigImpl config, KerberosIdentity server, KerberosIdentity user,
      Path krb5Conf, String qop) {
    config.setRootUserName(user.principal());
    config.setProperty(Property.INSTANCE_SECURITY_AUTHENTICATOR, HANDLERS + "KerberosAuthenticator");
    config.setProperty(Property.INSTANCE_SECURITY_AUTHORIZOR, HANDLERS + "KerberosAuthorizor");
    config.setProperty(Property.INSTANCE_SECURITY_PERMISSION_HANDLER, HANDLERS + "KerberosPermissionHandler");
    config.setProperty(Property.INSTANCE_RPC_SASL_ENABLED, "true");
    config.setProperty(Property.RPC_SASL_QOP, qop);
    config.setProperty(Property.GENERAL_KERBEROS_PRINCIPAL, server.principal());
    config.setProperty(Property.GENERAL_KERBEROS_KEYTAB, server.keytab().toString());
    config.setClientProperty(ClientProperty.SASL_ENABLED, "true");
    config.setClientProperty(ClientProperty.SASL_QOP, qop);
    config.setClientProperty(ClientProperty.SASL_KERBEROS_SERVER_PRIMARY, server.shortName().split("/", 2)[0]);
    config.setClientProperty(ClientProperty.AUTH_TYPE, "kerberos");
    config.setClientProperty(ClientProperty.AUTH_PRINCIPAL, user.principal());
    config.setClientProperty(ClientProperty.AUTH_TOKEN, user.keytab().toString());
    // krb5.conf is per JVM: every server process is told where the KDC is.
    Map<String, String> system = config.getSystemProperties();
    system.put("java.security.krb5.conf", krb5Conf.toString());
    config.setSystemProperties(system);
    config.setPreStartConfigProcessor(initialized -> writeCoreSite(initialized.getConfDir().toPath()));
  }

  /** Hadoop's UserGroupInformation in the servers logs in with Kerberos only when core-site.xml says so. */
  private static void writeCoreSite(Path confDir) {
    try {
      Files.createDirectories(confDir);
      Files.writeString(confDir.resolve("core-site.xml"), "<configuration><property>"
          + "<name>hadoop.security.authentication</name><value>kerberos</value></property></configuration>\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write core-site.xml into " + confDir, e);
    }
  }
}
