package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientTransportFactory;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testing.RequiresGssapiSasl;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KdcExtension;
import io.securethrift.kdc.KerberosIdentity;
import io.securethrift.kdc.KerberosLogin;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
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
 * AES-GCM privacy ({@code securethrift.sasl.privacy}) on the non-blocking server, GSSAPI against a real KDC: the key
 * exchange answered from the event loop, records both ways across several per message, and peers without it.
 */
@ExtendWith(KdcExtension.class)
@RequiresGssapiSasl
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
      try (LogCapture log = LogCapture.start();
          NettyThriftServer server = start(kdc, serverPrivacy);
          ClientTransportFactory clients = clients(kdc, clientPrivacy);
          SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        if (clientPrivacy == SaslPrivacy.GSS && serverPrivacy == SaslPrivacy.AES_GCM) {
          assertThrows(TTransportException.class, () -> roundTrips(client));
          String warning = log.awaitLines("without the key exchange", 1, Duration.ofSeconds(30)).get(0);
          assertTrue(warning.contains("securethrift.sasl.privacy=aes-gcm"), warning);
          continue;
        }
        SaslPrivacy expected = clientPrivacy == SaslPrivacy.GSS ? SaslPrivacy.GSS : SaslPrivacy.AES_GCM;
        assertEquals(Optional.of(expected), transport.peerIdentity().privacy());
        roundTrips(client);
        String who = client.whoAmI();
        assertTrue(who.contains("GSSAPI auth-conf/" + expected), who);
      }
    }
  }

  /** libthrift's client speaks gss: served by a preferring server, refused with a clear reason by a requiring one. */
  @ParameterizedTest
  @EnumSource(value = SaslPrivacy.class, names = {"AES_GCM", "AES_GCM_PREFERRED"})
  void libthriftClient(SaslPrivacy serverPrivacy, EmbeddedKdc kdc) throws Exception {
    try (LogCapture log = LogCapture.start();
        NettyThriftServer server = start(kdc, serverPrivacy)) {
      Subject subject = KerberosLogin.login(kdc.principal("client"));
      TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, "accumulo", "localhost",
          Map.of(Sasl.QOP, "auth-conf"), null, new TSocket("localhost", server.port()));
      Subject.doAs(subject, (PrivilegedExceptionAction<Void>) () -> {
        transport.open();
        return null;
      });
      try {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        if (serverPrivacy == SaslPrivacy.AES_GCM) {
          assertThrows(TTransportException.class, () -> roundTrips(client));
          String warning = log.awaitLines("without the key exchange", 1, Duration.ofSeconds(30)).get(0);
          assertTrue(warning.contains("stock Thrift SASL peer"), warning);
        } else {
          roundTrips(client);
          assertTrue(client.whoAmI().contains("GSSAPI auth-conf/gss"));
        }
      } finally {
        transport.close();
      }
    }
  }
}
