package io.securethrift.examples.rpc;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;

/**
 * The Greeter service behind TLS and Kerberos. Run {@code GreeterServer server.properties 9090}: the file holds the
 * {@code securethrift.*} keys (mode {@code sasl-over-tls}, key store, service principal and keytab).
 */
public final class GreeterServer implements Greeter.Iface {
  @Override
  public String greet(String message) {
    // Set for every call by the factory's processor: the Kerberos principal and how the connection is secured.
    PeerIdentity caller = PeerIdentity.current().orElseThrow();
    return message + ", " + caller.principal().orElse("stranger") + " (" + caller.tlsProtocol().orElse("no TLS")
        + ", " + caller.mechanism().orElse("no SASL") + ")";
  }

  /** A server on {@code socket}, made by {@code factory.listen}; {@code serve()} blocks until {@code stop()}. */
  public static TServer create(ServerTransportFactory factory, TServerSocket socket) {
    // The TLS handshake and the Kerberos negotiation run on each connection's worker thread, never on accept; at most
    // securethrift.server.max.threads workers (256 by default), which also bounds the connections.
    return new TThreadPoolServer(factory.threadPoolServerArgs(socket, new Greeter.Processor<>(new GreeterServer()))
        .protocolFactory(new TCompactProtocol.Factory()));
  }

  public static void main(String[] args) throws Exception {
    SecurityConfig config = SecurityConfigFiles.read(Path.of(args[0]), "the server's configuration file");
    // The factory logs in from the keytab (and keeps the login renewed) and loads the key store; close it at the end.
    try (ServerTransportFactory factory = ServerTransportFactory.create(config)) {
      create(factory, factory.listen(new InetSocketAddress(Integer.parseInt(args[1])))).serve();
    }
  }
}
