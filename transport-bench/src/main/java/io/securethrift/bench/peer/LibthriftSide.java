package io.securethrift.bench.peer;

import io.securethrift.core.testservice.EchoServer;
import io.securethrift.harness.BenchMode;
import io.securethrift.testkit.KerberosLogin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * libthrift's own transports as Accumulo wires them: {@code TFramedTransport} over {@code TSocket}; for TLS
 * {@code TSSLTransportFactory} with its defaults (the client builds a new {@code SSLContext}, loading its trust
 * store, for every connection; the server one for its socket) and framing on top; for SASL
 * {@code TSaslClientTransport} / {@code TSaslServerTransport} with GSSAPI and one QOP, no framing inside, each
 * handshake inside {@code Subject.doAs} of a keytab login. Every server socket has a client timeout, as Accumulo's
 * {@code TServerUtils} gives each (its RPC timeout): a socket with a read timeout waits for data with a poll after a
 * read that found none, one without blocks in the read, so leaving it out would make libthrift's server do fewer
 * system calls than any Accumulo server does. In the Conscrypt mode the cell's JVM puts Conscrypt first
 * for {@code SSLContext} ({@link PeerCell}), which is how Accumulo gets it.
 */
final class LibthriftSide {
  private LibthriftSide() {}

  static CellServer server(BenchMode mode, PeerMaterial m) throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    TServerSocket socket;
    TTransportFactory transports;
    if (mode.tls()) {
      TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters();
      params.setKeyStore(m.keyStore().toString(), m.password(), null, "PKCS12");
      socket = TSSLTransportFactory.getServerSocket(0, PeerCell.TIMEOUT_MS, loopback, params);
      transports = new TFramedTransport.Factory();
    } else if (mode.sasl()) {
      socket = new TServerSocket(new InetSocketAddress(loopback, 0), PeerCell.TIMEOUT_MS);
      transports = sasl(mode, KerberosLogin.login(m.service()));
    } else {
      socket = new TServerSocket(new InetSocketAddress(loopback, 0), PeerCell.TIMEOUT_MS);
      transports = new TFramedTransport.Factory();
    }
    EchoServer server = EchoServer.start(new TThreadPoolServer.Args(socket).transportFactory(transports)
        .processor(EchoServer.processor()), EchoServer.portOf(socket));
    return new CellServer(server, () -> { });
  }

  private static TTransportFactory sasl(BenchMode mode, Subject service) {
    TSaslServerTransport.Factory factory = new TSaslServerTransport.Factory();
    factory.addServerDefinition("GSSAPI", PeerMaterial.PRIMARY, PeerMaterial.HOST, props(mode),
        LibthriftSide::authorizeSelf);
    return new TTransportFactory() {
      @Override
      public TTransport getTransport(TTransport trans) throws TTransportException {
        return as(service, () -> factory.getTransport(trans));
      }
    };
  }

  /** Accumulo's GSSAPI server callback: a client is authorized as itself only. */
  private static void authorizeSelf(Callback[] callbacks) throws UnsupportedCallbackException {
    for (Callback callback : callbacks) {
      if (!(callback instanceof AuthorizeCallback authorize)) {
        throw new UnsupportedCallbackException(callback, "GSSAPI servers only authorize");
      }
      String authz = authorize.getAuthorizationID();
      authorize.setAuthorized(authz == null || authz.equals(authorize.getAuthenticationID()));
      if (authorize.isAuthorized()) {
        authorize.setAuthorizedID(authorize.getAuthenticationID());
      }
    }
  }

  static Dialer client(BenchMode mode, PeerMaterial m) throws Exception {
    if (mode.tls()) {
      return port -> {
        TSSLTransportFactory.TSSLTransportParameters params =
            new TSSLTransportFactory.TSSLTransportParameters(PeerModes.clientProtocol(mode), null);
        params.setTrustStore(m.trustStore().toString(), m.password(), null, "PKCS12");
        return new TFramedTransport(TSSLTransportFactory.getClientSocket(PeerMaterial.HOST, port,
            PeerCell.TIMEOUT_MS, params));
      };
    }
    if (mode.sasl()) {
      Subject client = KerberosLogin.login(m.client());
      return port -> {
        TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, PeerMaterial.PRIMARY,
            PeerMaterial.HOST, props(mode), null, new TSocket(PeerMaterial.HOST, port, PeerCell.TIMEOUT_MS));
        as(client, () -> {
          transport.open();
          return null;
        });
        return transport;
      };
    }
    return port -> {
      TTransport transport = new TFramedTransport(new TSocket(PeerMaterial.HOST, port, PeerCell.TIMEOUT_MS));
      transport.open();
      return transport;
    };
  }

  private static Map<String, String> props(BenchMode mode) {
    return Map.of(Sasl.QOP, mode.qop().token(), Sasl.SERVER_AUTH, "true");
  }

  private static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws TTransportException {
    try {
      return Subject.doAs(subject, action);
    } catch (PrivilegedActionException e) {
      if (e.getException() instanceof TTransportException t) {
        throw t;
      }
      throw new TTransportException(e.getException());
    }
  }
}
