package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.ClientTransportFactory;
import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.ServerTransportFactory;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KdcExtension;
import io.securethrift.kdc.KerberosIdentity;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a runtime without {@code jdk.security.jgss} (a child of this JVM started without it, as a jlink'd image built
 * without it runs), a GSSAPI client and a Kerberos server fail when created, naming the module and the fix, while
 * DIGEST-MD5, which is in {@code java.security.sasl}, still negotiates there.
 */
@ExtendWith(KdcExtension.class)
class MissingGssapiModuleTest {
  private static final String MODULE = "jdk.security.jgss";

  @Test
  void clientAndServerNameTheMissingModuleAndTheFix(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity service = SaslConfigs.service(kdc);
    LineRecord server = LineRecord.of("server").with("principal", service.principal()).with("keytab",
        service.keytab());
    try (ChildJvm child = ChildJvm.builder(Child.class).withoutModules(MODULE).talk().start()) {
      assertEquals("securethrift.sasl.mechanism: GSSAPI, but this JVM has no SASL client implementation of GSSAPI: "
          + whyAndFix(), refusal(child.call(LineRecord.of("client"))));
      assertEquals("securethrift.sasl.kerberos.keytab: set, so this server accepts GSSAPI, but this JVM has no SASL"
          + " server implementation of GSSAPI: " + whyAndFix(), refusal(child.call(server)));
      LineRecord digest = child.call(LineRecord.of("digest"));
      assertEquals("DIGEST-MD5 auth-conf", digest.get("mechanism") + " " + digest.get("qop"));
    }
    if (ModuleFinder.ofSystem().find(MODULE).isPresent()) {
      // The advice holds where this runtime's image has the module to add.
      try (ChildJvm child = ChildJvm.builder(Child.class).withoutModules(MODULE)
          .jvmOptions(List.of("--add-modules", MODULE)).talk().start()) {
        assertEquals("CREATED", child.call(LineRecord.of("client")).kind());
        assertEquals("CREATED", child.call(server).kind());
      }
    }
  }

  /** The message's tail: where the mechanism lives and what to do, which depends on whether the image has it. */
  private static String whyAndFix() {
    String runtime = "this Java runtime (" + Runtime.version() + " at " + System.getProperty("java.home") + ")";
    return "the JDK's GSSAPI SASL mechanism is in the module jdk.security.jgss, which " + runtime
        + (ModuleFinder.ofSystem().find(MODULE).isPresent()
            ? " has but did not load, as when started with --limit-modules; start the JVM with --add-modules"
                + " jdk.security.jgss"
            : " does not include, as in a jlink'd image built without it; add it to the image (jlink --add-modules"
                + " jdk.security.jgss) or run on a full JDK");
  }

  private static String refusal(LineRecord answer) {
    assertEquals("REFUSED", answer.kind(), answer.encode());
    return answer.get("message");
  }

  /** The child: creates what it is told to and answers CREATED, REFUSED with the message, or what DIGEST-MD5 ran. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      ChildJvm.serve(command -> {
        switch (command.kind()) {
          case "client":
            return attempt(() -> ClientTransportFactory.create(SaslConfigs.base(SaslMechanism.GSSAPI).build()));
          case "server":
            return attempt(() -> ServerTransportFactory.create(SaslConfigs.base(SaslMechanism.GSSAPI)
                .kerberosLogin(command.get("principal"), Path.of(command.get("keytab"))).build()));
          case "digest":
            return digest();
          default:
            throw new IllegalArgumentException("unknown command " + command.kind());
        }
      });
    }

    private static LineRecord attempt(Callable<AutoCloseable> create) throws Exception {
      try (AutoCloseable created = create.call()) {
        return LineRecord.of("CREATED");
      } catch (ConfigException e) {
        return LineRecord.of("REFUSED").with("message", e.getMessage());
      }
    }

    private static LineRecord digest() throws Exception {
      try (ServerTransportFactory servers = ServerTransportFactory.create(SaslConfigs.digestServer()
              .qop(QualityOfProtection.AUTH_CONF).build());
          EchoServer server = EchoServer.start(servers);
          ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient()
              .qop(QualityOfProtection.AUTH_CONF).build());
          SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
        EchoServer.assertEchoes(EchoServer.client(transport), 1000);
        return LineRecord.of("NEGOTIATED").with("mechanism", transport.peerIdentity().mechanism().orElseThrow())
            .with("qop", transport.peerIdentity().qop().orElseThrow().token());
      }
    }
  }
}
