package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * TLS on a runtime without {@code jdk.crypto.ec} (a child of this JVM started without it, as a jlink'd image built
 * without it runs). Up to Java 21 that module is the JDK's EC provider, SunEC: an EC key store then fails naming the
 * module and the fix instead of claiming a wrong password, and JSSE, left with finite-field key exchange only, cannot
 * meet Conscrypt, which each JSSE side explains the same way. Since Java 22 SunEC is in java.base, so the same child
 * must do all of it.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class MissingEcModuleTest {
  private static final String MODULE = "jdk.crypto.ec";
  private static final boolean EC_IN_JAVA_BASE = Runtime.version().feature() >= 22;

  @Test
  void ecKeysAndEcdheNameTheMissingModuleAndTheFix(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path trustStore = TlsTestConfigs.trustStore(ca, dir);
    Path rsaStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "rsa");
    Path ecStore = TlsTestConfigs.keyStore(ca.leaf().keyType(KeyType.EC).issue(), dir, "ec");
    try (ChildJvm child = ChildJvm.builder(Child.class).withoutModules(MODULE).talk().start();
        ServerTransportFactory conscryptServers = ServerTransportFactory.create(
            TlsTestConfigs.tls(TlsEngine.CONSCRYPT, rsaStore, trustStore).build());
        EchoServer conscryptServer = EchoServer.start(conscryptServers);
        ClientTransportFactory conscryptClients = ClientTransportFactory.create(
            TlsTestConfigs.tls(TlsEngine.CONSCRYPT, null, trustStore).build())) {
      LineRecord ecServer = child.call(LineRecord.of("server").with("keystore", ecStore)
          .with("truststore", trustStore));
      LineRecord ecClient = child.call(LineRecord.of("client").with("keystore", ecStore)
          .with("truststore", trustStore));
      LineRecord jsseClient = child.call(LineRecord.of("connect").with("port", conscryptServer.port())
          .with("truststore", trustStore));
      int jssePort = Integer.parseInt(child.call(LineRecord.of("serve").with("keystore", rsaStore)
          .with("truststore", trustStore)).get("port"));
      if (EC_IN_JAVA_BASE) {
        assertEquals("CREATED", ecServer.kind(), ecServer.encode());
        assertEquals("CREATED", ecClient.kind(), ecClient.encode());
        assertEquals("CONNECTED", jsseClient.kind(), jsseClient.encode());
        try (SecuredTransport transport = conscryptClients.open("localhost", jssePort)) {
          EchoServer.assertEchoes(EchoServer.client(transport), 1000);
        }
        return;
      }
      String keyRefused = "securethrift.tls.keystore.path: cannot use the private key 'ec' in " + ecStore
          + ", an EC key: " + noEcProvider();
      assertEquals(keyRefused, refusal(ecServer));
      assertEquals(keyRefused, refusal(ecClient));
      String failed = "handshake with localhost:" + conscryptServer.port() + " failed: TLS handshake with localhost:"
          + conscryptServer.port() + " failed: no cipher suite in common (securethrift.tls.cipher.suites,"
          + " securethrift.tls.protocols); this side's JSSE offers no ECDHE key exchange or ECDSA signatures, because "
          + noEcProvider() + ": ";
      assertEquals("FAILED", jsseClient.kind(), jsseClient.encode());
      assertTrue(jsseClient.get("message").startsWith(failed), jsseClient.get("message"));
      // The server side: a Conscrypt client offers only EC groups; the JSSE server logs why it refused it.
      assertThrows(TTransportException.class, () -> conscryptClients.open("localhost", jssePort));
      String rejected = child.call(LineRecord.of("rejection")).get("line");
      assertTrue(rejected.contains(" failed: no key exchange group in common; this side's JSSE offers no ECDHE key"
          + " exchange or ECDSA signatures, because " + noEcProvider() + ": "), rejected);
    }
  }

  /** What every message ends with: no EC provider, where it lives and what to do. */
  private static String noEcProvider() {
    String runtime = "this Java runtime (" + Runtime.version() + " at " + System.getProperty("java.home") + ")";
    return "this JVM has no EC provider: the JDK's EC provider, SunEC, is in the module jdk.crypto.ec, which " + runtime
        + (ModuleFinder.ofSystem().find(MODULE).isPresent()
            ? " has but did not load, as when started with --limit-modules; start the JVM with --add-modules"
                + " jdk.crypto.ec"
            : " does not include, as in a jlink'd image built without it; add it to the image (jlink --add-modules"
                + " jdk.crypto.ec) or run on a full JDK");
  }

  private static String refusal(LineRecord answer) {
    assertEquals("REFUSED", answer.kind(), answer.encode());
    return answer.get("message");
  }

  /**
   * The child, on JSSE: creates a server or client factory from a key store (CREATED or REFUSED), connects to a
   * server (CONNECTED or FAILED), serves on a port, and reports the connection its server last rejected.
   */
  public static final class Child {
    private static final LogCapture LOG = LogCapture.start();
    private static ServerTransportFactory servers;
    private static EchoServer server;

    public static void main(String[] args) throws Exception {
      ChildJvm.serve(command -> {
        switch (command.kind()) {
          case "server":
            return attempt(() -> ServerTransportFactory.create(jsse(command).build()));
          case "client":
            return attempt(() -> ClientTransportFactory.create(jsse(command).build()));
          case "connect":
            return connect(command);
          case "serve":
            servers = ServerTransportFactory.create(jsse(command).build());
            server = EchoServer.start(servers);
            return LineRecord.of("SERVING").with("port", server.port());
          case "rejection":
            return LineRecord.of("REJECTED").with("line",
                LOG.awaitLines("rejected connection", 1, Duration.ofSeconds(20)).get(0));
          default:
            throw new IllegalArgumentException("unknown command " + command.kind());
        }
      });
      // The parent closed the input: stop serving, or the server's threads would keep this JVM alive.
      if (server != null) {
        server.close();
        servers.close();
      }
    }

    /** A JSSE configuration from the command's trust store and, if it names one, key store. */
    private static SecurityConfig.Builder jsse(LineRecord command) {
      Path key = command.fields().containsKey("keystore") ? Path.of(command.get("keystore")) : null;
      return TlsTestConfigs.tls(TlsEngine.JSSE, key, Path.of(command.get("truststore")));
    }

    private static LineRecord attempt(Callable<AutoCloseable> create) throws Exception {
      try (AutoCloseable created = create.call()) {
        return LineRecord.of("CREATED");
      } catch (ConfigException e) {
        return LineRecord.of("REFUSED").with("message", e.getMessage());
      }
    }

    private static LineRecord connect(LineRecord command) throws Exception {
      try (ClientTransportFactory clients = ClientTransportFactory.create(jsse(command).build());
          SecuredTransport transport = clients.open("localhost", Integer.parseInt(command.get("port")))) {
        EchoServer.assertEchoes(EchoServer.client(transport), 1000);
        return LineRecord.of("CONNECTED");
      } catch (TTransportException e) {
        return LineRecord.of("FAILED").with("message", e.getMessage());
      }
    }
  }
}
