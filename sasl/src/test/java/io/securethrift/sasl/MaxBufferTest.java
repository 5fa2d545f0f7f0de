package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosLogin;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's SASL max buffer, advertised in its security layer reply, bounds every token the server sends it. Real
 * GSSAPI auth-conf negotiations with libthrift's client (the JDK's mechanism, {@code javax.security.sasl.maxbuffer})
 * against our server, through a relay that measures the server's data frames. A buffer the wrapping overhead fills
 * completely is refused during the negotiation, with the same clear reason on both sides.
 */
@ExtendWith(KdcExtension.class)
class MaxBufferTest {
  /** The JDK's wrapping overhead for the test KDC's keys: a buffer of this size or less carries no payload. */
  private static final int OVERHEAD = 69;

  @ParameterizedTest
  @ValueSource(ints = {64, 69, 70, 4096, 65536})
  void serverHonoursTheClientsMaxBufferOrRefusesIt(int maxBuffer, EmbeddedKdc kdc) throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.server(kdc, SaslMechanism.GSSAPI,
            QualityOfProtection.AUTH_CONF));
        EchoServer server = EchoServer.start(factory);
        FrameSizeRelay relay = new FrameSizeRelay(server.port())) {
      Subject subject = KerberosLogin.login(SaslConfigs.client(kdc));
      TSaslClientTransport transport = new TSaslClientTransport(LibthriftPeers.gssapiClient(
          Map.of(Sasl.QOP, "auth-conf", Sasl.MAX_BUFFER, Integer.toString(maxBuffer))),
          new TSocket(SaslConfigs.HOST, relay.port()));
      if (maxBuffer <= OVERHEAD) {
        TTransportException e = assertThrows(TTransportException.class, () -> LibthriftPeers.as(subject, () -> {
          transport.open();
          return null;
        }));
        String reason = "the client's SASL max buffer is too small to carry one byte of auth-conf payload";
        assertTrue(e.getMessage().contains("Peer indicated failure: " + reason), e.getMessage());
        Await.until("the refusal counted", Duration.ofSeconds(30),
            () -> factory.counters().failures(AuthFailure.SASL_BAD) == 1);
        String warning = log.awaitLines("rejected connection from", 1, Duration.ofSeconds(30)).get(0);
        assertTrue(warning.contains("[sasl-bad]: GSSAPI negotiation with ") && warning.contains(reason), warning);
        System.out.println("MaxBufferTest " + maxBuffer + ": client: " + e.getMessage() + "\nserver: " + warning);
        return;
      }
      LibthriftPeers.as(subject, () -> {
        transport.open();
        return null;
      });
      try {
        EchoServer.assertEchoes(EchoServer.client(transport), 1, 300, 20_000);
      } finally {
        transport.close();
      }
      List<Integer> frames = relay.serverFrames();
      int largest = Collections.max(frames);
      assertTrue(largest <= maxBuffer, "a " + largest + "-byte token to a client taking " + maxBuffer);
      if (maxBuffer < 20_000) {
        assertTrue(frames.size() > 20_000 / maxBuffer, frames.size() + " tokens for a 20,000-byte reply");
      }
      assertEquals(1, factory.counters().successes());
      System.out.println("MaxBufferTest " + maxBuffer + ": " + frames.size() + " server tokens, largest " + largest);
    }
  }
}
