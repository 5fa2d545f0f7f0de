package io.securethrift.netty;

import static io.securethrift.netty.CountingEchoServer.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.JMX;
import javax.management.ObjectName;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code securethrift.server.connection.max.age} on both server models, over real loopback sockets in plain, TLS (JSSE,
 * and Conscrypt where the thread-pool server peeks at its socket) and DIGEST-MD5 auth-conf modes: an aged connection
 * closes only between calls, and the client with {@code securethrift.client.connection.max.age} moves to new
 * connections losing and repeating nothing.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ConnectionAgeTest {
  private static final Duration MAX_AGE = Duration.ofMillis(300);
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-of-bob".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static TlsEchoServer.Stores stores;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    stores = TlsEchoServer.Stores.write(ca, dir);
  }

  /** The mode's settings for one side; the test adds the ages. */
  private static SecurityConfig.Builder side(String mode, boolean server) {
    switch (mode) {
      case "none":
        return SecurityConfig.builder();
      case "tls":
      case "conscrypt":
        return stores.mutual(mode.equals("tls") ? TlsEngine.JSSE : TlsEngine.CONSCRYPT, server);
      case "digest":
        SecurityConfig.Builder digest = SecurityConfig.builder().mode(SecurityMode.SASL)
            .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF)
            .serverHost("localhost");
        return server ? digest.delegationTokenSecrets(id -> Arrays.equals(id, TOKEN.identifier())
            ? Optional.of(TOKEN.password()) : Optional.empty()) : digest.delegationToken(TOKEN);
      default:
        throw new IllegalArgumentException(mode);
    }
  }

  /** The model serving {@code mode} with the test's maximum age. */
  private static CountingEchoServer aged(String model, String mode) throws Exception {
    return new CountingEchoServer(model, side(mode, true).serverConnectionMaxAge(MAX_AGE).build());
  }

  private static long agedOut(CountingEchoServer server) {
    return server.counters.closes(CloseCause.MAX_AGE);
  }

  private static EchoService.Client client(SecuredTransport transport) {
    return new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
  }

  @ParameterizedTest(name = "{1} on {0}")
  @CsvSource({"threadpool, none", "threadpool, tls", "threadpool, conscrypt", "threadpool, digest",
      "nonblocking, none", "nonblocking, tls", "nonblocking, digest"})
  void aCallUnderWayWhenTheAgePassesIsAnsweredAndTheConnectionClosesAfterIt(String model, String mode)
      throws Exception {
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (CountingEchoServer server = aged(model, mode);
        ClientTransportFactory clients = ClientTransportFactory.create(side(mode, false).build());
        SecuredTransport transport = clients.open("localhost", server.port)) {
      EchoService.Client client = client(transport);
      assertEquals(call(1), client.echo(call(1)));
      Future<ByteBuffer> slow = caller.submit(() -> client.echo(call(-1)));
      assertTrue(server.echo.slowEntered.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the slow call must start");
      long entered = System.nanoTime();
      // The call began after the accept, so once it has run longer than the age, the connection is older.
      Await.until("the slow call outliving the connection's age", WAIT,
          () -> System.nanoTime() - entered > MAX_AGE.toNanos());
      assertEquals(0, agedOut(server), "a connection is never closed during a call");
      server.echo.releaseSlow.countDown();
      assertEquals(call(-1), slow.get(WAIT.toSeconds(), TimeUnit.SECONDS));
      Await.until("the aged connection closing after the reply", WAIT, () -> agedOut(server) == 1);
      // A client that does not renew its connection finds it closed; the call it tried never ran.
      assertThrows(TTransportException.class, () -> client.echo(call(2)));
      assertEquals(0, server.echo.executions(2));
      assertEquals(1, server.echo.executions(-1));
      assertEquals(1, server.echo.executions(1));
    } finally {
      caller.shutdownNow();
    }
  }

  @ParameterizedTest(name = "{1} on {0}")
  @CsvSource({"threadpool, none", "threadpool, tls", "nonblocking, none", "nonblocking, digest"})
  void anIdleConnectionIsClosedOnceItReachesTheAgeAuditedWithoutAWarning(String model, String mode)
      throws Exception {
    try (LogCapture log = LogCapture.start();
        CountingEchoServer server = aged(model, mode);
        ClientTransportFactory clients = ClientTransportFactory.create(side(mode, false).build());
        SecuredTransport transport = clients.open("localhost", server.port)) {
      assertEquals(call(1), client(transport).echo(call(1)));
      Await.until("the idle connection closing at its age", WAIT, () -> agedOut(server) == 1);
      assertEquals(1, server.counters.successes());
      ServerCountersMXBean jmx = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
          new ObjectName("io.securethrift:type=Server,port=" + server.port), ServerCountersMXBean.class);
      assertEquals(Map.of("max-age", 1L, "ticket-expired", 0L), jmx.getConnectionsClosedByCause());
      String line = log.awaitLines("event=close", 1, WAIT).get(0);
      assertTrue(line.matches(".* peer=/127\\.0\\.0\\.1:\\d+ mode=" + SecurityMode.parse("mode",
          mode.equals("digest") ? "sasl" : mode).token() + " principal=.* cause=max-age age_ms=\\d+"), line);
      assertEquals(List.of(), log.lines("").stream().filter(l -> l.contains("] WARN ") || l.contains("] ERROR "))
          .collect(Collectors.toList()), "closing for age is no warning");
    }
  }

  /**
   * Calls back to back across several ages, on a client whose age is below the server's: each call runs exactly
   * once and is answered, on at least four connections in turn.
   */
  @ParameterizedTest(name = "{1} on {0}")
  @CsvSource({"threadpool, none", "threadpool, digest", "nonblocking, none", "nonblocking, tls"})
  void theRenewingClientLosesAndRepeatsNoCall(String model, String mode) throws Exception {
    Duration clientAge = Duration.ofMillis(200);
    try (CountingEchoServer server = aged(model, mode);
        ClientTransportFactory clients = ClientTransportFactory.create(
            side(mode, false).clientConnectionMaxAge(clientAge).build());
        SecuredTransport transport = clients.open("localhost", server.port)) {
      EchoService.Client client = client(transport);
      int calls = 0;
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (server.counters.successes() < 4 && System.nanoTime() - deadline < 0) {
        assertEquals(call(calls), client.echo(call(calls)));
        calls++;
      }
      assertTrue(server.counters.successes() >= 4, "calls must have spanned several connections");
      for (int id = 0; id < calls; id++) {
        assertEquals(1, server.echo.executions(id), "call " + id);
      }
      assertEquals(calls, server.echo.executions.size());
    }
  }

  /** Without the settings a connection serves at any age, on both models. */
  @ParameterizedTest
  @CsvSource({"threadpool", "nonblocking"})
  void withTheDefaultsConnectionsServeAtAnyAge(String model) throws Exception {
    SecurityConfig defaults = SecurityConfig.builder().build();
    assertEquals(Duration.ZERO, defaults.server().connectionMaxAge());
    assertEquals(Duration.ZERO, defaults.timeouts().clientConnectionMaxAge());
    assertEquals("0s", ConfigProperty.SERVER_CONNECTION_MAX_AGE.defaultValue());
    try (CountingEchoServer server = new CountingEchoServer(model, defaults);
        ClientTransportFactory clients = ClientTransportFactory.create(defaults);
        SecuredTransport transport = clients.open("localhost", server.port)) {
      EchoService.Client client = client(transport);
      long opened = System.nanoTime();
      assertEquals(call(1), client.echo(call(1)));
      Await.until("the connection growing older than the test's age", WAIT,
          () -> System.nanoTime() - opened > 2 * MAX_AGE.toNanos());
      assertEquals(call(2), client.echo(call(2)));
      assertEquals(0, agedOut(server));
      assertEquals(1, server.counters.successes());
    }
  }

  @Test
  void aClientAgeNotBelowTheServersIsRefusedNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.builder().set("securethrift.server.connection.max.age", "60s")
            .set("securethrift.client.connection.max.age", "60s").build());
    assertTrue(e.getMessage().startsWith("securethrift.client.connection.max.age"), e.getMessage());
    assertTrue(e.getMessage().contains("not below securethrift.server.connection.max.age"), e.getMessage());
    assertThrows(ConfigException.class,
        () -> SecurityConfig.builder().set("securethrift.server.connection.max.age", "-1s").build());
    assertEquals(Duration.ofSeconds(50), SecurityConfig.builder().set("securethrift.server.connection.max.age", "60s")
        .set("securethrift.client.connection.max.age", "50s").build().timeouts().clientConnectionMaxAge());
  }
}
