package io.securethrift.examples.accumulo;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;

/**
 * A tablet-server-like endpoint, secured by a server node's own {@code accumulo.properties}. Run
 * {@code TabletServerStandIn conf/accumulo.properties 9997}. It is not Accumulo: it serves one small service the way
 * Accumulo 2.1 serves its own (TLS, framed transport, compact protocol, services multiplexed by name).
 */
public final class TabletServerStandIn implements TabletStatus.Iface {
  /** The name the service is multiplexed under, as Accumulo 2.1 multiplexes {@code client}, {@code tablet}... */
  public static final String SERVICE = "tablet";

  @Override
  public String status() {
    // The caller's name comes from its client certificate (instance.rpc.ssl.clientAuth=true), mapped by CN.
    PeerIdentity caller = PeerIdentity.current().orElseThrow();
    return "serving " + caller.principal().orElse("an anonymous client") + " over "
        + caller.tlsProtocol().orElse("plain TCP");
  }

  /** A server on {@code socket}, made by {@code factory.listen}; {@code serve()} blocks until {@code stop()}. */
  public static TServer create(ServerTransportFactory factory, TServerSocket socket) {
    TMultiplexedProcessor services = new TMultiplexedProcessor();
    services.registerProcessor(SERVICE, new TabletStatus.Processor<>(new TabletServerStandIn()));
    // At most securethrift.server.max.threads worker threads (256 by default), each holding one connection.
    return new TThreadPoolServer(factory.threadPoolServerArgs(socket, services)
        .protocolFactory(new TCompactProtocol.Factory()));
  }

  public static void main(String[] args) throws Exception {
    // Accumulo's keys, defaults and rules: instance.rpc.ssl.*, rpc.javax.net.ssl.*, rpc.ssl.server.enabled.protocols.
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(Path.of(args[0]));
    try (ServerTransportFactory factory = ServerTransportFactory.create(config)) {
      create(factory, factory.listen(new InetSocketAddress(Integer.parseInt(args[1])))).serve();
    }
  }
}
