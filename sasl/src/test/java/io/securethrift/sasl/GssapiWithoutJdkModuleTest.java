package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a runtime without {@code jdk.security.jgss}, the JDK's GSSAPI SASL mechanism (a child of this JVM started
 * without it, as a jlink'd image built without it runs), securethrift's own mechanism still negotiates GSSAPI: a
 * securethrift client and server at {@code auth-conf} with AES-GCM, and DIGEST-MD5, which is in
 * {@code java.security.sasl}, as before.
 */
@ExtendWith(KdcExtension.class)
class GssapiWithoutJdkModuleTest {
  private static final String MODULE = "jdk.security.jgss";

  @Test
  void gssapiNegotiatesWithoutTheJdksMechanism(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity service = SaslConfigs.service(kdc);
    KerberosIdentity user = SaslConfigs.client(kdc);
    LineRecord gssapi = LineRecord.of("gssapi").with("service", service.principal())
        .with("serviceKeytab", service.keytab()).with("user", user.principal()).with("userKeytab", user.keytab());
    try (ChildJvm child = ChildJvm.builder(Child.class).withoutModules(MODULE).talk().start()) {
      LineRecord answer = child.call(gssapi);
      assertEquals("NEGOTIATED", answer.kind(), answer.encode());
      assertEquals("GSSAPI auth-conf aes-gcm false", answer.get("mechanism") + " " + answer.get("qop") + " "
          + answer.get("privacy") + " " + answer.get("jdkMechanism"));
      LineRecord digest = child.call(LineRecord.of("digest"));
      assertEquals("DIGEST-MD5 auth-conf", digest.get("mechanism") + " " + digest.get("qop"));
    }
  }

  /** The child: negotiates what it is told to and answers what it ran. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      ChildJvm.serve(command -> {
        switch (command.kind()) {
          case "gssapi":
            return gssapi(command);
          case "digest":
            return negotiate(SaslConfigs.digestServer().qop(QualityOfProtection.AUTH_CONF),
                SaslConfigs.digestClient().qop(QualityOfProtection.AUTH_CONF));
          default:
            throw new IllegalArgumentException("unknown command " + command.kind());
        }
      });
    }

    private static LineRecord gssapi(LineRecord command) throws Exception {
      LineRecord result = negotiate(
          SaslConfigs.base(SaslMechanism.GSSAPI).qop(QualityOfProtection.AUTH_CONF)
              .saslPrivacy(SaslPrivacy.AES_GCM)
              .kerberosLogin(command.get("service"), Path.of(command.get("serviceKeytab"))),
          SaslConfigs.base(SaslMechanism.GSSAPI).qop(QualityOfProtection.AUTH_CONF)
              .saslPrivacy(SaslPrivacy.AES_GCM)
              .kerberosLogin(command.get("user"), Path.of(command.get("userKeytab"))));
      return result.with("jdkMechanism", String.valueOf(ModuleLayer.boot().findModule(MODULE).isPresent()));
    }

    private static LineRecord negotiate(io.securethrift.core.SecurityConfig.Builder server,
        io.securethrift.core.SecurityConfig.Builder client) throws Exception {
      try (ServerTransportFactory servers = ServerTransportFactory.create(server.build());
          EchoServer echo = EchoServer.start(servers);
          ClientTransportFactory clients = ClientTransportFactory.create(client.build());
          SecuredTransport transport = clients.open(SaslConfigs.HOST, echo.port())) {
        EchoServer.assertEchoes(EchoServer.client(transport), 1000, 200_000);
        return LineRecord.of("NEGOTIATED").with("mechanism", transport.peerIdentity().mechanism().orElseThrow())
            .with("qop", transport.peerIdentity().qop().orElseThrow().token())
            .with("privacy", transport.peerIdentity().privacy().map(SaslPrivacy::token).orElse("-"));
      }
    }
  }
}
