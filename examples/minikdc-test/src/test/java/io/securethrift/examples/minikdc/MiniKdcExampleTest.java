package io.securethrift.examples.minikdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.accumulo.hadoop.HadoopSasl;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A securethrift server and client authenticated by Hadoop's MiniKdc, set up as Accumulo's integration tests set it
 * up: one MiniKdc for the class, a service principal {@code accumulo/localhost} and users with keytabs MiniKdc
 * exports, the server logged in from its keytab, clients logged in by securethrift or by Hadoop's UGI.
 */
class MiniKdcExampleTest {
  private static final String KRB5_CONF = "java.security.krb5.conf";
  private static final String KRB5_DEBUG = "sun.security.krb5.debug";
  private static final String HOST = "localhost";
  @TempDir static Path dir;
  private static String savedDebug;
  private static MiniKdc kdc;
  private static ServerTransportFactory serverFactory;
  private static TServer server;
  private static Thread serving;
  private static int port;

  @BeforeAll
  static void start() throws Exception {
    savedDebug = System.getProperty(KRB5_DEBUG);
    // EXAMPLE.COM on localhost, a free port. start() points the JVM-wide java.security.krb5.conf at the KDC, so test
    // classes that start a KDC must not run in parallel in one JVM.
    kdc = new MiniKdc(MiniKdc.createConf(), dir.toFile());
    kdc.start();
    // The service principal names the host clients dial.
    kdc.createPrincipal(keytab("accumulo"), "accumulo/" + HOST);
    kdc.createPrincipal(keytab("alice"), "alice");
    kdc.createPrincipal(keytab("bob"), "bob");
    serverFactory = ServerTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.SASL)
        .kerberosLogin("accumulo/" + HOST + "@" + kdc.getRealm(), keytab("accumulo").toPath())
        .qop(QualityOfProtection.AUTH_CONF).build());
    TServerSocket socket = serverFactory.listen(new InetSocketAddress(HOST, 0));
    port = ServerTransportFactory.port(socket);
    server = new TThreadPoolServer(serverFactory.threadPoolServerArgs(socket, WHO_AM_I)
        .protocolFactory(new TBinaryProtocol.Factory()));
    serving = new Thread(server::serve, "who-am-i-server");
    serving.start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
    serving.join(30_000);
    serverFactory.close();
    UserGroupInformation.reset();
    kdc.stop();
    // MiniKdc leaves both JVM-wide properties set; put them back as they were.
    System.clearProperty(KRB5_CONF);
    if (savedDebug == null) {
      System.clearProperty(KRB5_DEBUG);
    } else {
      System.setProperty(KRB5_DEBUG, savedDebug);
    }
  }

  /** The smallest service, without an IDL: each call sends a string and gets back the caller's principal. */
  private static final TProcessor WHO_AM_I = (in, out) -> {
    in.readString();
    out.writeString(PeerIdentity.current().flatMap(PeerIdentity::principal).orElse("nobody"));
    out.getTransport().flush();
  };

  private static String whoAmI(SecuredTransport transport) throws TException {
    TProtocol protocol = transport.protocol(new TBinaryProtocol.Factory());
    protocol.writeString("who am I?");
    protocol.getTransport().flush();
    return protocol.readString();
  }

  private static File keytab(String name) {
    return dir.resolve(name + ".keytab").toFile();
  }

  private static SecurityConfig.Builder client() {
    return SecurityConfig.builder().mode(SecurityMode.SASL).serverPrimary("accumulo")
        .qop(QualityOfProtection.AUTH_CONF);
  }

  @Test
  void clientLoggedInBySecurethriftFromItsKeytab() throws Exception {
    String alice = "alice@" + kdc.getRealm();
    try (ClientTransportFactory factory = ClientTransportFactory.create(client()
        .kerberosLogin(alice, keytab("alice").toPath()).build());
        SecuredTransport transport = factory.open(HOST, port)) {
      assertEquals(alice, whoAmI(transport));
    }
  }

  @Test
  void clientLoggedInByHadoopUgi() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(conf);
    String bob = "bob@" + kdc.getRealm();
    UserGroupInformation ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(bob, keytab("bob").toString());
    // No principal in the configuration: the connection runs as the UGI login.
    try (ClientTransportFactory factory = ClientTransportFactory.create(client().build());
        SecuredTransport transport = HadoopSasl.open(factory, ugi, HOST, port)) {
      assertEquals(bob, whoAmI(transport));
    }
  }
}
