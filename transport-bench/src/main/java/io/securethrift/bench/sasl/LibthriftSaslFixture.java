package io.securethrift.bench.sasl;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.security.Security;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * Unmodified libthrift SASL transports on both ends, GSSAPI, wired as Accumulo wires them
 * ({@code TSaslServerTransport.Factory} on a {@code TThreadPoolServer}, {@code TSaslClientTransport} on a socket,
 * each finding its mechanism through {@code Sasl}), with {@link SecureThriftSaslProvider} installed in this JVM while
 * the fixture is open: with {@code aes-gcm-preferred} privacy, what an Accumulo cluster with the provider on every JVM
 * gets; with {@code gss}, the standard Kerberos wrap tokens, the same GSS-API calls and bytes as the JDK's mechanism,
 * which is what unmodified Accumulo gets today.
 */
final class LibthriftSaslFixture implements AutoCloseable {
  private final Map<String, String> props;
  private final Subject clientSubject;
  private final EchoServer server;
  private final boolean installed;

  private LibthriftSaslFixture(Map<String, String> props, Subject clientSubject, EchoServer server,
      boolean installed) {
    this.props = props;
    this.clientSubject = clientSubject;
    this.server = server;
    this.installed = installed;
  }

  /**
   * @param qop {@code Sasl.QOP} on both ends
   * @param privacy {@code securethrift.sasl.privacy} on both ends
   */
  static LibthriftSaslFixture start(KerberosIdentity service, KerberosIdentity client, QualityOfProtection qop,
      SaslPrivacy privacy) throws Exception {
    Map<String, String> props = Map.of(Sasl.QOP, qop.token(), ConfigProperty.SASL_PRIVACY.key(), privacy.token());
    boolean installed = SecureThriftSaslProvider.install();
    try {
      Subject serviceSubject = KerberosLogin.login(service);
      TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
      sasl.addServerDefinition("GSSAPI", "accumulo", EchoFixture.HOST, props, null);
      TTransportFactory asService = new TTransportFactory() {
        @Override
        public TTransport getTransport(TTransport trans) throws TTransportException {
          return as(serviceSubject, () -> sasl.getTransport(trans));
        }
      };
      TServerSocket socket = new TServerSocket(0);
      EchoServer server = EchoServer.start(new TThreadPoolServer.Args(socket).transportFactory(asService)
          .processor(EchoServer.processor()), EchoServer.portOf(socket));
      return new LibthriftSaslFixture(props, KerberosLogin.login(client), server, installed);
    } catch (Exception | Error e) {
      if (installed) {
        Security.removeProvider(SecureThriftSaslProvider.NAME);
      }
      throw e;
    }
  }

  /** Opens a libthrift SASL connection (TCP connect plus the GSSAPI handshake) as the client. */
  EchoConnection connect() throws TTransportException {
    TSaslClientTransport transport = as(clientSubject, () -> new TSaslClientTransport("GSSAPI", null, "accumulo",
        EchoFixture.HOST, props, null, new TSocket(EchoFixture.HOST, server.port())));
    as(clientSubject, () -> {
      transport.open();
      return null;
    });
    return EchoConnection.over(transport);
  }

  private static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws TTransportException {
    try {
      return Subject.doAs(subject, action);
    } catch (PrivilegedActionException e) {
      throw e.getException() instanceof TTransportException ? (TTransportException) e.getException()
          : new TTransportException(e.getException());
    }
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      if (installed) {
        Security.removeProvider(SecureThriftSaslProvider.NAME);
      }
    }
  }
}
