package io.securethrift.accumulo.ingest;

import io.securethrift.ingest.bench.BenchSecurity;
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
 * Kerberized MiniAccumuloCluster settings against the benchmark's KDC: GSSAPI RPC with one QOP, servers logged in as
 * {@code accumulo/localhost}, Kerberos users, and the benchmark's {@code ingest} principal as the instance's root user
 * so it may create tables without further grants.
 */
final class KerberizedCluster {
  private static final String HANDLERS = "org.apache.accumulo.server.security.handler.";

  private KerberizedCluster() {}

  static void configure(MiniAccumuloConfigImpl config, BenchSecurity security, String qop) {
    KerberosIdentity server = security.servicePrincipal();
    KerberosIdentity user = security.clientPrincipal();
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
    config.setClientProperty(ClientProperty.SASL_KERBEROS_SERVER_PRIMARY, BenchSecurity.SERVICE_PRIMARY);
    config.setClientProperty(ClientProperty.AUTH_TYPE, "kerberos");
    config.setClientProperty(ClientProperty.AUTH_PRINCIPAL, user.principal());
    config.setClientProperty(ClientProperty.AUTH_TOKEN, user.keytab().toString());
    // krb5.conf is per JVM: every server process is told where the benchmark's KDC is.
    Map<String, String> system = config.getSystemProperties();
    system.put("java.security.krb5.conf", security.krb5Conf().toString());
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
