package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kerby is an optional dependency, needed only to read a Kerberos client's ticket end: a GSSAPI server without it (a
 * child of this JVM whose class path lacks Kerby's jars) refuses to start while
 * {@code securethrift.server.kerberos.close.at.ticket.end} is true, saying what to add or set, and starts with it
 * false.
 */
@ExtendWith(KdcExtension.class)
class TicketEndWithoutKerbyTest {
  private static final String KEY = "securethrift.server.kerberos.close.at.ticket.end";

  @Test
  void aGssapiServerWithoutKerbyRefusesToStartUnlessTheSettingIsFalse(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity service = SaslConfigs.service(kdc);
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("kerb"))
        .collect(Collectors.joining(File.pathSeparator));
    LineRecord start = LineRecord.of("start").with("service", service.principal())
        .with("keytab", service.keytab());
    try (ChildJvm child = ChildJvm.builder(Child.class).classPath(classPath).talk().start()) {
      LineRecord refused = child.call(start.with("close", "true"));
      assertEquals("REFUSED", refused.kind(), refused.encode());
      assertTrue(refused.get("message").startsWith(KEY + ": true, but Apache Kerby's crypto"
          + " (org.apache.kerby:kerb-crypto) is not on this server's class path"), refused.get("message"));
      assertTrue(refused.get("message").endsWith("add it, or set false to keep connections past their ticket"),
          refused.get("message"));
      LineRecord started = child.call(start.with("close", "false"));
      assertEquals("STARTED", started.kind(), started.encode());
    }
  }

  /** The child: creates a GSSAPI server factory as told and answers whether it could. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      ChildJvm.serve(command -> {
        SecurityConfig config = SaslConfigs.base(SaslMechanism.GSSAPI)
            .kerberosLogin(command.get("service"), Path.of(command.get("keytab")))
            .set(KEY, command.get("close")).build();
        try (ServerTransportFactory servers = ServerTransportFactory.create(config)) {
          return LineRecord.of("STARTED");
        } catch (ConfigException e) {
          return LineRecord.of("REFUSED").with("message", e.getMessage());
        }
      });
    }
  }
}
