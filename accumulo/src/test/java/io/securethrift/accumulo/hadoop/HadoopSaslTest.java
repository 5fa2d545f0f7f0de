package io.securethrift.accumulo.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** UGI logins and proxy users connecting to a real SASL (GSSAPI, auth-conf) echo server through the embedded KDC. */
class HadoopSaslTest {
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private static ServerTransportFactory serverFactory;
  private static EchoServer server;
  private static ClientTransportFactory client;

  @BeforeAll
  static void start() throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    KerberosIdentity service = kdc.servicePrincipal("accumulo", EmbeddedKdc.HOST);
    serverFactory = ServerTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.SASL)
        .kerberosLogin(service.principal(), service.keytab()).qop(QualityOfProtection.AUTH_CONF).build());
    server = EchoServer.start(serverFactory);
    // No principal: the SASL layer runs as the caller's (UGI's) login.
    client = ClientTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.SASL)
        .qop(QualityOfProtection.AUTH_CONF).serverPrimary("accumulo").build());
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(conf);
  }

  @AfterAll
  static void stop() throws Exception {
    UserGroupInformation.reset();
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (serverFactory != null) {
      serverFactory.close();
    }
  }

  @Test
  void keytabLoginThroughUgiConnectsAsItsPrincipal() throws Exception {
    KerberosIdentity alice = KDC.kdc().principal("alice");
    UserGroupInformation ugi = HadoopSasl.loginFromKeytab(alice.principal(), alice.keytab());
    try (SecuredTransport transport = HadoopSasl.open(client, ugi, EmbeddedKdc.HOST, server.port())) {
      assertEquals(QualityOfProtection.AUTH_CONF, transport.peerIdentity().qop().orElseThrow());
      String seen = EchoServer.client(transport).whoAmI();
      assertTrue(seen.contains(alice.principal()), seen);
    }
  }

  @Test
  void proxyUserConnectsWithItsRealUsersCredentials() throws Exception {
    KerberosIdentity gateway = KDC.kdc().principal("gateway");
    UserGroupInformation real = HadoopSasl.loginFromKeytab(gateway.principal(), gateway.keytab());
    UserGroupInformation bob = UserGroupInformation.createProxyUser("bob", real);
    try (SecuredTransport transport = HadoopSasl.open(client, bob, EmbeddedKdc.HOST, server.port())) {
      String seen = EchoServer.client(transport).whoAmI();
      assertTrue(seen.contains(gateway.principal()) && !seen.contains("bob"), seen);
    }
    assertEquals("bob", HadoopSasl.requestUser(bob));
  }

  @Test
  void callerWithoutKerberosLoginIsToldHowToFixIt() {
    TTransportException e = assertThrows(TTransportException.class,
        () -> client.open(EmbeddedKdc.HOST, server.port()).close());
    assertTrue(e.getMessage().contains("UserGroupInformation.doAs"), e.getMessage());
  }
}
