package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.util.List;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ways a Kerberos (GSSAPI) negotiation or login can go wrong fail with a specific message and leave the server
 * serving other clients; what any mechanism can get wrong is {@link SaslFailureTest}'s.
 */
class GssapiFailureTest {
  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().build();

  private static ServerTransportFactory serverFactory;
  private static EchoServer server;
  private static ClientTransportFactory goodClient;

  @BeforeAll
  static void start() throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    serverFactory = ServerTransportFactory.create(SaslConfigs.server(kdc, SaslMechanism.GSSAPI,
        QualityOfProtection.AUTH_CONF));
    server = EchoServer.start(serverFactory);
    goodClient = ClientTransportFactory.create(SaslConfigs.client(kdc, SaslMechanism.GSSAPI,
        QualityOfProtection.AUTH_CONF));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    goodClient.close();
    serverFactory.close();
  }

  private static void serverStillServes() throws Exception {
    try (SecuredTransport transport = goodClient.open(SaslConfigs.HOST, server.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 1);
    }
  }

  @Test
  void qopListsWithNothingInCommonFailNamingBothLists() throws Exception {
    SecurityConfig client = SaslConfigs.client(KDC.kdc(), SaslMechanism.GSSAPI, QualityOfProtection.AUTH,
        QualityOfProtection.AUTH_INT);
    try (ClientTransportFactory factory = ClientTransportFactory.create(client)) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> factory.open(SaslConfigs.HOST, server.port()));
      assertEquals("SASL GSSAPI negotiation with localhost failed: no SASL quality of protection acceptable to both"
          + " sides: client accepts [auth, auth-int], server offers [auth-conf]",
          e.getMessage());
    }
    serverStillServes();
  }


  @UsesJdkGssapi
  @Test
  void libthriftStyleClientWithAnotherQopSeesTheServersList(EmbeddedKdc kdc) throws Exception {
    TTransportException e = assertThrows(TTransportException.class,
        () -> LibthriftPeers.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH, server.port()).close());
    assertTrue(e.getMessage().contains("No common protection layer"), e.getMessage());
    serverStillServes();
  }


  @Test
  void wrongKeytabNamesThePrincipalAndKeytab(EmbeddedKdc kdc) {
    KerberosIdentity other = kdc.principal("someone-else");
    SecurityConfig config = SaslConfigs.base(SaslMechanism.GSSAPI, List.of(QualityOfProtection.AUTH))
        .kerberosLogin(SaslConfigs.client(kdc).principal(), other.keytab()).build();
    KerberosLoginException e = assertThrows(KerberosLoginException.class, () -> ClientTransportFactory.create(config));
    assertEquals("Kerberos keytab " + other.keytab() + " holds no key for client@" + kdc.realm() + " (realm "
        + kdc.realm() + "); check securethrift.sasl.kerberos.principal and the keytab", e.getMessage());
  }


  @Test
  void serverLoginThatCannotAcceptFailsAtCreationAndStopsItsRenewalThread(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity user = kdc.principal("not-a-service");
    SecurityConfig config = SaslConfigs.base(SaslMechanism.GSSAPI).serverHost(SaslConfigs.HOST)
        .kerberosLogin(user.principal(), user.keytab()).build();
    ConfigException e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config));
    assertTrue(e.getMessage().startsWith("securethrift.sasl.kerberos.principal: not-a-service@" + kdc.realm()
        + " cannot accept Kerberos connections as not-a-service/localhost: No valid credentials provided"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("; a server logs in as its service principal primary/host@REALM, with the host"
        + " spelled as clients address it"), e.getMessage());
    String renewal = "securethrift-kerberos-renewal " + user.principal();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(renewal)) {
        t.join(10_000);
        assertFalse(t.isAlive(), "the failed start left its renewal thread running");
      }
    }
  }


  @Test
  void unknownPrincipalFailsTheLoginNamingIt(EmbeddedKdc kdc) {
    KerberosIdentity gone = kdc.principal("gone");
    kdc.deletePrincipal("gone");
    SecurityConfig config = SaslConfigs.base(SaslMechanism.GSSAPI, List.of(QualityOfProtection.AUTH))
        .kerberosLogin(gone.principal(), gone.keytab()).build();
    KerberosLoginException e = assertThrows(KerberosLoginException.class, () -> ClientTransportFactory.create(config));
    assertTrue(e.getMessage().startsWith("Kerberos login of gone@" + kdc.realm() + " (realm " + kdc.realm()
        + ") from keytab " + gone.keytab() + " failed: Client not found in Kerberos database"), e.getMessage());
  }


  @Test
  void unknownServicePrincipalIsReportedByTheClient(EmbeddedKdc kdc) throws Exception {
    SecurityConfig config = SaslConfigs.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF)
        .toBuilder().serverPrimary("nosuchservice").build();
    try (ClientTransportFactory factory = ClientTransportFactory.create(config)) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> factory.open(SaslConfigs.HOST, server.port()));
      assertTrue(e.getMessage().contains("Server not found in Kerberos database") && e.getMessage().contains(
          "no service principal nosuchservice/" + SaslConfigs.HOST + ", named by securethrift.sasl.kerberos.server"
              + ".primary"), e.getMessage());
    }
    serverStillServes();
  }
}
