package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * AES-GCM privacy ({@code securethrift.sasl.privacy}) on the non-blocking server, GSSAPI against a real KDC: privacy
 * settled inside the mechanism's exchange, records both ways across several per message, and peers without it.
 */
@ExtendWith(KdcExtension.class)
class NettyPrivacyTest {
  private static SecurityConfig.Builder base(SaslPrivacy privacy) {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(QualityOfProtection.AUTH_CONF).saslPrivacy(privacy).maxFrameSize(4L << 20);
  }

  private static NettyThriftServer start(EmbeddedKdc kdc, SaslPrivacy privacy) throws Exception {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
    return NettyThriftServer.builder(base(privacy).kerberosLogin(service.principal(), service.keytab()).build(),
        new EchoService.Processor<>(new EchoHandler())).protocolFactory(new TCompactProtocol.Factory())
        .workerThreads(4).eventLoopThreads(2).shutdownGrace(Duration.ofSeconds(2)).build()
        .start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static ClientTransportFactory clients(EmbeddedKdc kdc, SaslPrivacy privacy) {
    KerberosIdentity client = kdc.principal("client");
    return ClientTransportFactory.create(base(privacy).kerberosLogin(client.principal(), client.keytab()).build());
  }

  private static void roundTrips(EchoService.Client client) throws Exception {
    for (int size : new int[] {0, 10, 500_000, 3}) {
      byte[] payload = new byte[size];
      new Random(size).nextBytes(payload);
      ByteBuffer echoed = client.echo(ByteBuffer.wrap(payload));
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      assertArrayEquals(payload, got);
    }
  }

  /** This project's client with each setting against a Netty server that requires AES-GCM or prefers it. */
  @ParameterizedTest
  @EnumSource(SaslPrivacy.class)
  void thisProjectsClient(SaslPrivacy clientPrivacy, EmbeddedKdc kdc) throws Exception {
    for (SaslPrivacy serverPrivacy : new SaslPrivacy[] {SaslPrivacy.AES_GCM, SaslPrivacy.AES_GCM_PREFERRED}) {
      try (NettyThriftServer server = start(kdc, serverPrivacy);
          ClientTransportFactory clients = clients(kdc, clientPrivacy)) {
        if (clientPrivacy == SaslPrivacy.GSS && serverPrivacy == SaslPrivacy.AES_GCM) {
          TTransportException e = assertThrows(TTransportException.class, () -> clients.open("localhost",
              server.port()));
          assertTrue(e.getMessage().contains("the server requires AES-GCM for auth-conf"), e.getMessage());
          continue;
        }
        try (SecuredTransport transport = clients.open("localhost", server.port())) {
          EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
          SaslPrivacy expected = clientPrivacy == SaslPrivacy.GSS ? SaslPrivacy.GSS : SaslPrivacy.AES_GCM;
          assertEquals(Optional.of(expected), transport.peerIdentity().privacy());
          roundTrips(client);
          String who = client.whoAmI();
          assertTrue(who.contains("GSSAPI auth-conf/" + expected), who);
        }
      }
    }
  }

  /**
   * libthrift's client on the JDK's mechanism speaks gss: served by a preferring server; a requiring server offers it
   * no layer it knows, so it fails to open.
   */
  @UsesJdkGssapi
  @ParameterizedTest
  @EnumSource(value = SaslPrivacy.class, names = {"AES_GCM", "AES_GCM_PREFERRED"})
  void libthriftClient(SaslPrivacy serverPrivacy, EmbeddedKdc kdc) throws Exception {
    try (NettyThriftServer server = start(kdc, serverPrivacy)) {
      Subject subject = KerberosLogin.login(kdc.principal("client"));
      TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, "accumulo", "localhost",
          Map.of(Sasl.QOP, "auth-conf"), null, new TSocket("localhost", server.port()));
      PrivilegedExceptionAction<Void> open = () -> {
        transport.open();
        return null;
      };
      if (serverPrivacy == SaslPrivacy.AES_GCM) {
        PrivilegedActionException e = assertThrows(PrivilegedActionException.class, () -> Subject.doAs(subject,
            open));
        assertTrue(e.getCause().getMessage().contains("No common protection layer"), e.getCause()::getMessage);
        return;
      }
      Subject.doAs(subject, open);
      try {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        roundTrips(client);
        assertTrue(client.whoAmI().contains("GSSAPI auth-conf/gss"));
      } finally {
        transport.close();
      }
    }
  }
}
