package io.securethrift.accumulo.hadoop;

import io.securethrift.accumulo.HadoopUgi;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.VersionedProtocol;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop RPC as HDFS and YARN run it: hadoop-common's RPC server and client, Kerberos from the embedded KDC, and
 * {@code hadoop.rpc.protection=privacy}, with {@link SecureThriftSaslProvider} installed in the JVM. Hadoop's
 * {@code SaslRpcServer} and {@code SaslRpcClient} find securethrift's GSSAPI through {@code Sasl}, carry the AES-GCM
 * key reply in their SUCCESS message, accept the connection as {@code auth-conf}, and calls of 1 byte to 1 MB go
 * through; both ends count an {@code auth-conf/aes-gcm} negotiation.
 */
class HadoopRpcPrivacyTest {
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private static final String PRINCIPAL_KEY = "securethrift.test.echo.principal";
  private static final String JDK_SASL = "JdkSASL";

  /** The protocol; Hadoop reads the server principal's configuration key from the annotation. */
  @KerberosInfo(serverPrincipal = PRINCIPAL_KEY)
  public interface Echo extends VersionedProtocol {
    // Hadoop's RPC reads the protocol's version from a field of exactly this name.
    @SuppressWarnings("checkstyle:constantname")
    long versionID = 1L;

    byte[] echo(byte[] data) throws IOException;
  }

  /** The server's side of {@link Echo}. */
  public static final class EchoImpl implements Echo {
    @Override
    public byte[] echo(byte[] data) {
      return data;
    }

    @Override
    public long getProtocolVersion(String protocol, long clientVersion) {
      return versionID;
    }

    @Override
    public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash)
        throws IOException {
      return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion, clientMethodsHash);
    }
  }

  @Test
  void privacyRunsOnAesGcmThroughTheProvider() throws Exception {
    HadoopUgi.assumeRuns();
    EmbeddedKdc kdc = KDC.kdc();
    KerberosIdentity service = kdc.servicePrincipal("echo", EmbeddedKdc.HOST);
    KerberosIdentity alice = kdc.principal("alice");
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hadoop.rpc.protection", "privacy");
    conf.set(PRINCIPAL_KEY, service.principal());
    RPC.setProtocolEngine(conf, Echo.class, WritableRpcEngine.class);
    // As the drop-in security file does: Hadoop enumerates factories in no particular order, so the JDK's GSSAPI
    // (JdkSASL's only mechanism) is taken out of the list while this runs and put back at its place after.
    Provider jdkSasl = Security.getProvider(JDK_SASL);
    int jdkSaslPosition = Arrays.asList(Security.getProviders()).indexOf(jdkSasl) + 1;
    Security.removeProvider(JDK_SASL);
    assertTrue(SecureThriftSaslProvider.install());
    long before = SecureThriftSaslProvider.negotiations("auth-conf/aes-gcm");
    RPC.Server server = null;
    try {
      UserGroupInformation.setConfiguration(conf);
      // Hadoop's server authenticates as the process's login user.
      UserGroupInformation.loginUserFromKeytab(service.principal(), service.keytab().toString());
      server = new RPC.Builder(conf).setProtocol(Echo.class).setInstance(new EchoImpl())
          .setBindAddress(EmbeddedKdc.HOST).setPort(0).setNumHandlers(1).build();
      server.start();
      InetSocketAddress address = NetUtils.getConnectAddress(server);
      UserGroupInformation client = UserGroupInformation.loginUserFromKeytabAndReturnUGI(alice.principal(),
          alice.keytab().toString());
      Echo proxy = client.doAs((PrivilegedExceptionAction<Echo>) () -> RPC.getProxy(Echo.class, Echo.versionID,
          address, conf));
      try {
        for (int size : new int[] {1, 1000, 1_000_000}) {
          byte[] data = new byte[size];
          new Random(size).nextBytes(data);
          byte[] echoed = client.doAs((PrivilegedExceptionAction<byte[]>) () -> proxy.echo(data));
          assertTrue(Arrays.equals(data, echoed), "the echo of " + size + " bytes differs");
        }
      } finally {
        RPC.stopProxy(proxy);
      }
      assertEquals(before + 2, SecureThriftSaslProvider.negotiations("auth-conf/aes-gcm"),
          "the client and the server each negotiated auth-conf on AES-GCM");
    } finally {
      if (server != null) {
        server.stop();
      }
      UserGroupInformation.reset();
      Security.removeProvider(SecureThriftSaslProvider.NAME);
      if (jdkSasl != null) {
        Security.insertProviderAt(jdkSasl, jdkSaslPosition);
      }
    }
  }
}
