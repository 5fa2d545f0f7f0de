package io.securethrift.accumulo.minikdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.hadoop.HadoopSasl;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.sasl.KerberosLoginException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.EnumMap;
import java.util.Map;
import javax.security.sasl.Sasl;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * securethrift over GSSAPI with Hadoop's MiniKdc as the KDC, set up as Accumulo's integration tests set it up: one
 * MiniKdc for the class, a service principal {@code accumulo/localhost} and user principals with the keytabs MiniKdc
 * exported, and clients logged in either by securethrift from a keytab or by Hadoop's UGI
 * ({@code loginUserFromKeytabAndReturnUGI}), at each QOP, over real loopback sockets.
 */
@UsesJdkGssapi
class MiniKdcGssapiTest {
  private static final String SERVICE = "accumulo";
  private static final Map<QualityOfProtection, ServerTransportFactory> FACTORIES =
      new EnumMap<>(QualityOfProtection.class);
  private static final Map<QualityOfProtection, EchoServer> SERVERS = new EnumMap<>(QualityOfProtection.class);
  private static TestingMiniKdc kdc;
  private static Path serviceKeytab;
  private static Path aliceKeytab;
  private static UserGroupInformation bob;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestingMiniKdc.start();
    serviceKeytab = kdc.principal(SERVICE + "/" + TestingMiniKdc.HOST);
    aliceKeytab = kdc.principal("alice");
    Path bobKeytab = kdc.principal("bob");
    // An Accumulo server offers one QOP; one server per QOP, all logged in as the same service principal.
    for (QualityOfProtection qop : QualityOfProtection.values()) {
      ServerTransportFactory factory = ServerTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.SASL)
          .kerberosLogin(kdc.qualify(SERVICE + "/" + TestingMiniKdc.HOST), serviceKeytab).qop(qop).build());
      FACTORIES.put(qop, factory);
      SERVERS.put(qop, EchoServer.start(factory));
    }
    // UGI reads "kerberos" from its Configuration, as in a Kerberized Accumulo client's core-site.xml.
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(conf);
    bob = UserGroupInformation.loginUserFromKeytabAndReturnUGI(kdc.qualify("bob"), bobKeytab.toString());
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      UserGroupInformation.reset();
      for (EchoServer server : SERVERS.values()) {
        server.close();
      }
      for (ServerTransportFactory factory : FACTORIES.values()) {
        factory.close();
      }
    } finally {
      SERVERS.clear();
      FACTORIES.clear();
      if (kdc != null) {
        kdc.close();
      }
    }
  }

  private static SecurityConfig.Builder client(QualityOfProtection qop) {
    return SecurityConfig.builder().mode(SecurityMode.SASL).serverPrimary(SERVICE).qop(qop);
  }

  private static int port(QualityOfProtection qop) {
    return SERVERS.get(qop).port();
  }

  /** What the server saw: {@code principal=<p> GSSAPI <qop>} in the identity its echo service reports. */
  private static void assertServerSaw(String whoAmI, String principal, QualityOfProtection qop) {
    assertTrue(whoAmI.contains("principal=" + principal + " GSSAPI " + qop.token()), whoAmI);
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void keytabLoginClientAtEachQop(QualityOfProtection qop) throws Exception {
    String alice = kdc.qualify("alice");
    try (ClientTransportFactory factory = ClientTransportFactory.create(client(qop).kerberosLogin(alice, aliceKeytab)
        .build()); SecuredTransport transport = factory.open(TestingMiniKdc.HOST, port(qop))) {
      assertEquals(qop, transport.peerIdentity().qop().orElseThrow());
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 1, 100_000);
      assertServerSaw(EchoServer.client(transport).whoAmI(), alice, qop);
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void ugiLoginThroughTheHadoopAdapterAtEachQop(QualityOfProtection qop) throws Exception {
    // No principal in the configuration: the SASL layer runs as the UGI login HadoopSasl.open runs it in.
    try (ClientTransportFactory factory = ClientTransportFactory.create(client(qop).build());
        SecuredTransport transport = HadoopSasl.open(factory, bob, TestingMiniKdc.HOST, port(qop))) {
      assertEquals(qop, transport.peerIdentity().qop().orElseThrow());
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 1, 100_000);
      assertServerSaw(EchoServer.client(transport).whoAmI(), kdc.qualify("bob"), qop);
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void libthriftSaslClientInUgiDoAsAtEachQop(QualityOfProtection qop) throws Exception {
    // As Accumulo 2.1's ThriftUtil opens a Kerberos connection: libthrift's TSaslClientTransport, one QOP, protocol
    // and host of the server's principal, opened inside the current UGI's doAs.
    TTransport transport = new TSaslClientTransport("GSSAPI", null, SERVICE, TestingMiniKdc.HOST,
        Map.of(Sasl.QOP, qop.token()), null, new TSocket(TestingMiniKdc.HOST, port(qop)));
    bob.doAs((PrivilegedExceptionAction<Void>) () -> {
      transport.open();
      return null;
    });
    try {
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 1, 100_000);
      assertServerSaw(EchoServer.client(transport).whoAmI(), kdc.qualify("bob"), qop);
    } finally {
      transport.close();
    }
  }

  @Test
  void keytabWithoutThePrincipalsKeyIsNamedBeforeAnyConnection() {
    String alice = kdc.qualify("alice");
    // The service's keytab, alice's name: the JDK alone would say only "Unable to obtain password from user".
    KerberosLoginException e = assertThrows(KerberosLoginException.class, () -> ClientTransportFactory.create(
        client(QualityOfProtection.AUTH_CONF).kerberosLogin(alice, serviceKeytab).build()).close());
    assertTrue(e.getMessage().contains("holds no key for " + alice) && e.getMessage().contains(serviceKeytab
        .toString()), e.getMessage());
  }

  @Test
  void serverWhoseKeytabHoldsNoKeyForItsPrincipalDoesNotStart() {
    String service = kdc.qualify(SERVICE + "/" + TestingMiniKdc.HOST);
    KerberosLoginException e = assertThrows(KerberosLoginException.class, () -> ServerTransportFactory.create(
        SecurityConfig.builder().mode(SecurityMode.SASL).kerberosLogin(service, aliceKeytab).build()).close());
    assertTrue(e.getMessage().contains("holds no key for " + service) && e.getMessage().contains(aliceKeytab
        .toString()), e.getMessage());
  }

  @Test
  void clientAskingForAnUnknownServicePrincipalIsToldWhich() throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(client(QualityOfProtection.AUTH_CONF)
        .serverPrimary("hive").kerberosLogin(kdc.qualify("alice"), aliceKeytab).build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> factory.open(TestingMiniKdc.HOST, port(QualityOfProtection.AUTH_CONF)).close());
      assertTrue(e.getMessage().contains("the KDC has no service principal hive/" + TestingMiniKdc.HOST),
          e.getMessage());
    }
  }
}
