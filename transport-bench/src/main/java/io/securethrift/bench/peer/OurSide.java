package io.securethrift.bench.peer;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.harness.BenchMode;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.transport.TTransport;

/**
 * securethrift's side of a cell: its server and client factories with the defaults a user gets, the settings the
 * mode needs, the read timeout libthrift's sockets get too, and a frame limit with room for the largest payload
 * (hostname verification stays on, GSSAPI privacy stays the JDK's).
 */
final class OurSide {
  private OurSide() {}

  static SecurityConfig config(BenchMode mode, PeerMaterial m, boolean server) {
    SecurityConfig.Builder b = SecurityConfig.builder().maxFrameSize(PeerCell.MAX_MESSAGE)
        .readTimeout(Duration.ofMillis(PeerCell.TIMEOUT_MS));
    Secret password = Secret.of(m.password().toCharArray());
    if (mode.tls()) {
      b.mode(SecurityMode.TLS).tlsEngine(mode.engine().orElseThrow()).clientAuth(ClientAuth.NONE)
          .trustStore(m.trustStore(), StoreType.PKCS12, password);
      if (server) {
        b.keyStore(m.keyStore(), StoreType.PKCS12, password);
      } else if (!PeerModes.clientProtocol(mode).equals("TLS")) {
        b.tlsProtocols(List.of(PeerModes.clientProtocol(mode)));
      }
    } else if (mode.sasl()) {
      b.mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI).qop(mode.qop()).saslPrivacy(SaslPrivacy.GSS)
          .serverPrimary(PeerMaterial.PRIMARY);
      if (server) {
        b.kerberosLogin(m.service().principal(), m.service().keytab());
      } else {
        b.kerberosLogin(m.client().principal(), m.client().keytab());
      }
    }
    return b.build();
  }

  /** Our server factory's echo server; closing it closes the factory too. */
  static CellServer server(BenchMode mode, PeerMaterial m) throws Exception {
    ServerTransportFactory factory = ServerTransportFactory.create(config(mode, m, true));
    try {
      return new CellServer(EchoServer.start(factory), factory);
    } catch (Exception | Error e) {
      factory.close();
      throw e;
    }
  }

  /** One client factory, reused for every connection as its documentation asks. */
  static Dialer client(BenchMode mode, PeerMaterial m) {
    ClientTransportFactory factory = ClientTransportFactory.create(config(mode, m, false));
    return new Dialer() {
      @Override
      public TTransport open(int port) throws Exception {
        return factory.open(PeerMaterial.HOST, port);
      }

      @Override
      public void close() {
        factory.close();
      }
    };
  }
}
