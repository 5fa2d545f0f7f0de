package io.securethrift.accumulo;

import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KerberosIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.core.conf.ClientProperty;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Turns a MiniAccumuloCluster into a Kerberized one against an {@link EmbeddedKdc}: SASL (GSSAPI) RPC with one QOP,
 * servers logged in as {@code accumulo/localhost} from a keytab, Kerberos users (the root user is a principal), and a
 * client file for {@code root} with its keytab. This host's canonical name is {@code localhost}, the name Accumulo's
 * clients put in the service principal.
 */
final class KerberosMac {
  static final String SERVER_PRIMARY = "accumulo";
  static final String ROOT = "root";
  private static final String HANDLERS = "org.apache.accumulo.server.security.handler.";

  private KerberosMac() {}

  static void configure(MiniAccumuloConfigImpl config, EmbeddedKdc kdc, String qop) {
    KerberosIdentity server = kdc.servicePrincipal(SERVER_PRIMARY, EmbeddedKdc.HOST);
    KerberosIdentity root = kdc.principal(ROOT);
    config.setRootUserName(root.principal());
    config.setProperty(Property.INSTANCE_SECURITY_AUTHENTICATOR, HANDLERS + "KerberosAuthenticator");
    config.setProperty(Property.INSTANCE_SECURITY_AUTHORIZOR, HANDLERS + "KerberosAuthorizor");
    config.setProperty(Property.INSTANCE_SECURITY_PERMISSION_HANDLER, HANDLERS + "KerberosPermissionHandler");
    config.setProperty(Property.INSTANCE_RPC_SASL_ENABLED, "true");
    config.setProperty(Property.RPC_SASL_QOP, qop);
    config.setProperty(Property.GENERAL_KERBEROS_PRINCIPAL, server.principal());
    config.setProperty(Property.GENERAL_KERBEROS_KEYTAB, server.keytab().toString());
    config.setClientProperty(ClientProperty.SASL_ENABLED, "true");
    config.setClientProperty(ClientProperty.SASL_QOP, qop);
    config.setClientProperty(ClientProperty.AUTH_TYPE, "kerberos");
    config.setClientProperty(ClientProperty.AUTH_PRINCIPAL, root.principal());
    config.setClientProperty(ClientProperty.AUTH_TOKEN, root.keytab().toString());
    // The child JVMs must find this KDC; krb5.conf is per JVM, given here on each command line.
    Map<String, String> system = config.getSystemProperties();
    system.put("java.security.krb5.conf", kdc.krb5Conf().toString());
    config.setSystemProperties(system);
    // The conf directory is known only once MiniAccumuloClusterImpl has laid out its directories.
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
