package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.security.Security;
import java.util.List;
import java.util.Map;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslServer;
import org.apache.thrift.transport.TSaslClientTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider installed as an operator installs it: a JVM started with nothing but
 * {@code -Djava.security.properties=<file>} (written by {@code DropInSecurityFile}), in which libthrift's own
 * {@code TSaslServerTransport} and {@code TSaslClientTransport}, asking {@code Sasl} for GSSAPI as Accumulo does, get
 * securethrift's mechanism on both ends and settle {@code auth-conf} on AES-GCM.
 */
@ExtendWith(KdcExtension.class)
class SaslProviderDropInTest {

  @Test
  void securityFileAloneGivesLibthriftAesGcm(EmbeddedKdc kdc, @TempDir Path dir) throws Exception {
    Path file = DropInSecurityFile.write(dir.resolve("sasl.security"), List.of(SaslProviderDropIn.NAME));
    KerberosIdentity service = SaslConfigs.service(kdc);
    KerberosIdentity user = SaslConfigs.client(kdc);
    LineRecord command = LineRecord.of("connect").with("service", service.principal())
        .with("serviceKeytab", service.keytab()).with("user", user.principal()).with("userKeytab", user.keytab());
    try (ChildJvm child = ChildJvm.builder(Child.class)
        .jvmOptions(List.of("-Djava.security.properties=" + file)).talk().start()) {
      LineRecord answer = child.call(command);
      assertEquals("CONNECTED", answer.kind(), answer.encode());
      assertEquals(SecureThriftSaslProvider.NAME, answer.get("firstProvider"));
      assertEquals("false", answer.get("jdkSasl"), "the file leaves the JDK's GSSAPI provider out");
      assertEquals("auth-conf aes-gcm", answer.get("clientQop") + " " + answer.get("clientPrivacy"));
      assertEquals("auth-conf aes-gcm", answer.get("serverQop") + " " + answer.get("serverPrivacy"));
    }
  }

  /** The child: a libthrift server and client in one JVM, each finding GSSAPI through {@code Sasl}. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      ChildJvm.serve(command -> {
        KerberosIdentity service = new KerberosIdentity(command.get("service"), Path.of(command.get("serviceKeytab")));
        KerberosIdentity user = new KerberosIdentity(command.get("user"), Path.of(command.get("userKeytab")));
        try (SaslProviderTest.Server server = new SaslProviderTest.Server(service, QualityOfProtection.AUTH_CONF,
                Map.of());
            TSaslClientTransport transport = SaslProviderTest.client(user, SaslProviderTest.Mechanism.LOOKED_UP,
                QualityOfProtection.AUTH_CONF, server.port(), Map.of())) {
          EchoServer.assertEchoes(EchoServer.client(transport), 1000, 200_000);
          SaslServer accepted = server.accepted();
          return LineRecord.of("CONNECTED").with("firstProvider", Security.getProviders()[0].getName())
              .with("jdkSasl", String.valueOf(Security.getProvider("JdkSASL") != null))
              .with("clientQop", transport.getSaslClient().getNegotiatedProperty(Sasl.QOP))
              .with("clientPrivacy", transport.getSaslClient().getNegotiatedProperty(GssLayer.PRIVACY))
              .with("serverQop", accepted.getNegotiatedProperty(Sasl.QOP))
              .with("serverPrivacy", accepted.getNegotiatedProperty(GssLayer.PRIVACY));
        }
      });
    }
  }
}
