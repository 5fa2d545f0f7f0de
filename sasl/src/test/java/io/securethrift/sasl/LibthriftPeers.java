package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosLogin;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * libthrift's own SASL transports, set up as Accumulo sets them up: one QOP, protocol {@code accumulo}, server name
 * {@code localhost}, the handshake inside {@code Subject.doAs} of a keytab login.
 */
final class LibthriftPeers {
  private LibthriftPeers() {}

  static Map<String, String> props(QualityOfProtection qop) {
    return Map.of(Sasl.QOP, qop.token());
  }

  /** A TThreadPoolServer with libthrift's SASL server factory accepting GSSAPI and DIGEST-MD5. */
  static EchoServer server(EmbeddedKdc kdc, QualityOfProtection qop) throws Exception {
    Subject subject = KerberosLogin.login(SaslConfigs.service(kdc));
    TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
    sasl.addServerDefinition("GSSAPI", "accumulo", SaslConfigs.HOST, props(qop), new ServerCallbacks(null));
    sasl.addServerDefinition("DIGEST-MD5", "accumulo", SaslConfigs.HOST, props(qop),
        new ServerCallbacks(SaslConfigs.SECRETS));
    TTransportFactory asService = new TTransportFactory() {
      @Override
      public TTransport getTransport(TTransport trans) throws TTransportException {
        return as(subject, () -> sasl.getTransport(trans));
      }
    };
    TServerSocket socket = new TServerSocket(0);
    return EchoServer.start(new TThreadPoolServer.Args(socket).transportFactory(asService)
        .processor(EchoServer.processor()), EchoServer.portOf(socket));
  }

  /** An open libthrift SASL client transport. */
  static TTransport client(EmbeddedKdc kdc, SaslMechanism mechanism, QualityOfProtection qop, int port)
      throws Exception {
    Subject subject = mechanism == SaslMechanism.GSSAPI ? KerberosLogin.login(SaslConfigs.client(kdc)) : new Subject();
    TSaslClientTransport transport = new TSaslClientTransport(mechanism.mechanismName(), null, "accumulo",
        SaslConfigs.HOST, props(qop), mechanism == SaslMechanism.GSSAPI ? null
            : new DigestClientCallbacks(SaslConfigs.TOKEN), new TSocket(SaslConfigs.HOST, port));
    as(subject, () -> {
      transport.open();
      return null;
    });
    return transport;
  }

  /**
   * The GSSAPI client a stock peer gets from {@code Sasl} on this runtime: the JDK's, or, on a runtime without it
   * ({@code jdk.security.jgss}), securethrift's, as it would with {@link SecureThriftSaslProvider} installed.
   */
  static SaslClient gssapiClient(Map<String, ?> props) throws SaslException {
    SaslClient client = Sasl.createSaslClient(new String[] {"GSSAPI"}, null, "accumulo", SaslConfigs.HOST, props,
        null);
    return client != null ? client : GssapiFactory.INSTANCE.createSaslClient(new String[] {"GSSAPI"}, null,
        "accumulo", SaslConfigs.HOST, props, null);
  }

  static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws TTransportException {
    try {
      return Subject.doAs(subject, action);
    } catch (java.security.PrivilegedActionException e) {
      if (e.getException() instanceof TTransportException) {
        throw (TTransportException) e.getException();
      }
      throw new TTransportException(e.getException());
    }
  }
}
