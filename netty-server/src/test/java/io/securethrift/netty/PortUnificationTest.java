package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.netty.TlsEchoServer.Model;
import io.securethrift.netty.TlsEchoServer.Stores;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import javax.management.JMX;
import javax.management.ObjectName;
import org.apache.thrift.TException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port unification ({@code securethrift.server.port.unification}) on both server models and both TLS engines: one
 * port serves mutual-TLS and plaintext clients, told apart by the first byte, audits each plaintext connection with
 * cause {@code plaintext}, and turns TLS-only through JMX while it runs; hostile first bytes are closed cleanly.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class PortUnificationTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static Stores stores;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    stores = Stores.write(ca, dir);
  }

  static Stream<Arguments> modelsAndEngines() {
    return Stream.of(Model.values()).flatMap(m -> Stream.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT, TlsEngine.OPENSSL)
        .map(e -> Arguments.of(m, e)));
  }

  private static SecurityConfig unified(TlsEngine engine) {
    return stores.mutual(engine, true).portUnification(true).handshakeTimeout(Duration.ofSeconds(2)).build();
  }

  private static ServerCountersMXBean jmx(TlsEchoServer server) throws Exception {
    return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
        new ObjectName("io.securethrift:type=Server,port=" + server.port()), ServerCountersMXBean.class);
  }

  /**
   * A mutual-TLS client and a plaintext one on the same port are both served; the plaintext one is anonymous, audited
   * with cause plaintext and counted. Set to TLS only through JMX, the port refuses the next plaintext connection
   * (audited, counted, cause plaintext) while the TLS connection already open, and a new one, carry on.
   */
  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("modelsAndEngines")
  @ExtendWith(RunnableEnginesOnly.class)
  void tlsAndPlaintextShareThePortUntilItTurnsTlsOnly(Model model, TlsEngine engine) throws Exception {
    try (LogCapture log = LogCapture.start();
        TlsEchoServer server = TlsEchoServer.start(model, unified(engine));
        ClientTransportFactory tlsClients = ClientTransportFactory.create(stores.mutual(engine, false).build());
        ClientTransportFactory plainClients = ClientTransportFactory.create(SecurityConfig.builder().build())) {
      AuthCounters counters = server.counters();
      ServerCountersMXBean jmx = jmx(server);
      assertTrue(jmx.isPlaintextAccepted());
      try (SecuredTransport tls = tlsClients.open("localhost", server.port())) {
        EchoServer.assertEchoes(EchoServer.client(tls), 50);
        assertTrue(EchoServer.client(tls).whoAmI().contains(" principal=bob"), "mutual TLS names the client");
        try (SecuredTransport plain = plainClients.open("localhost", server.port())) {
          EchoServer.assertEchoes(EchoServer.client(plain), 50);
          String nobody = EchoServer.client(plain).whoAmI();
          assertTrue(nobody.startsWith("PeerIdentity[none ") && !nobody.contains("principal="), nobody);
        }
        String line = log.awaitLines(" cause=plaintext ", 1, WAIT).get(0);
        assertTrue(line.contains("outcome=success") && line.contains(" mode=none "), line);
        assertEquals(1, counters.plaintext());
        assertEquals(1, jmx.getPlaintextConnections());
        assertEquals(2, counters.successes());

        jmx.setPlaintextAccepted(false);
        assertFalse(jmx.isPlaintextAccepted());
        assertThrows(TException.class, () -> {
          try (SecuredTransport plain = plainClients.open("localhost", server.port())) {
            EchoServer.assertEchoes(EchoServer.client(plain), 10);
          }
        });
        Await.until("the plaintext connection refused", WAIT, () -> counters.failures(AuthFailure.PLAINTEXT) == 1);
        String refusal = log.awaitLines("outcome=failure", 1, WAIT).get(0);
        assertTrue(refusal.contains(" cause=plaintext ") && refusal.contains(" stage=tls "), refusal);
        EchoServer.assertEchoes(EchoServer.client(tls), 50);
        try (SecuredTransport another = tlsClients.open("localhost", server.port())) {
          EchoServer.assertEchoes(EchoServer.client(another), 50);
        }
        assertEquals(1, counters.plaintext());
        assertEquals(3, counters.successes());
      }
    }
  }

  /** Off by default: a TLS port refuses a plaintext client as before, counts no plaintext and has no switch. */
  @ParameterizedTest
  @EnumSource(Model.class)
  void aTlsPortRefusesPlaintextByDefault(Model model) throws Exception {
    try (TlsEchoServer server = TlsEchoServer.start(model, stores.server(TlsEngine.JSSE).build());
        ClientTransportFactory plainClients = ClientTransportFactory.create(SecurityConfig.builder().build())) {
      assertThrows(TException.class, () -> {
        try (SecuredTransport plain = plainClients.open("localhost", server.port())) {
          EchoServer.assertEchoes(EchoServer.client(plain), 10);
        }
      });
      AuthCounters counters = server.counters();
      Await.until("the plaintext client refused", WAIT, () -> counters.failures() == 1);
      assertEquals(0, counters.failures(AuthFailure.PLAINTEXT));
      assertEquals(0, counters.plaintext());
      ServerCountersMXBean jmx = jmx(server);
      assertFalse(jmx.isPlaintextAccepted());
      RuntimeException noSwitch = assertThrows(RuntimeException.class, () -> jmx.setPlaintextAccepted(true));
      assertTrue(String.valueOf(noSwitch.getMessage()).contains(ConfigProperty.SERVER_PORT_UNIFICATION.key())
          || String.valueOf(noSwitch.getCause()).contains(ConfigProperty.SERVER_PORT_UNIFICATION.key()),
          String.valueOf(noSwitch));
    }
  }

  /**
   * Hostile first bytes on a unified port: text (taken for a frame far over the limit), a frame length over the limit,
   * one TLS byte and then silence (the handshake deadline), nothing at all. Each connection is closed, and the server
   * goes on serving TLS and plaintext clients.
   */
  @ParameterizedTest
  @EnumSource(Model.class)
  void hostileFirstBytesAreClosedAndTheServerStaysHealthy(Model model) throws Exception {
    try (TlsEchoServer server = TlsEchoServer.start(model, unified(TlsEngine.JSSE));
        ClientTransportFactory tlsClients = ClientTransportFactory.create(stores.mutual(TlsEngine.JSSE, false)
            .build());
        ClientTransportFactory plainClients = ClientTransportFactory.create(SecurityConfig.builder().build())) {
      assertClosed(server, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertClosed(server, new byte[] {0x01, 0x00, 0x00, 0x01, 0x0b, 0x00});
      assertClosed(server, new byte[] {0x15, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      assertClosed(server, new byte[] {0x16});
      assertClosed(server, new byte[0]);
      AuthCounters counters = server.counters();
      Await.until("the silent TLS connection timed out", WAIT, () -> counters.failures(AuthFailure.TIMEOUT) == 1);
      try (SecuredTransport tls = tlsClients.open("localhost", server.port());
          SecuredTransport plain = plainClients.open("localhost", server.port())) {
        EchoServer.assertEchoes(EchoServer.client(tls), 20);
        EchoServer.assertEchoes(EchoServer.client(plain), 20);
      }
    }
  }

  /** Sends {@code first} and waits for the server to close the connection, within the handshake deadline and more. */
  private static void assertClosed(TlsEchoServer server, byte[] first) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout((int) WAIT.toMillis());
      OutputStream out = socket.getOutputStream();
      if (first.length == 0) {
        socket.shutdownOutput();
      } else {
        out.write(first);
        out.flush();
      }
      InputStream in = socket.getInputStream();
      try {
        byte[] buf = new byte[1024];
        while (in.read(buf) >= 0) {
          // A TLS alert may come first; the end of the stream is what counts.
        }
      } catch (SocketException reset) {
        // A reset is a close too; a read timeout is not, and fails the test.
      }
    }
  }
}
