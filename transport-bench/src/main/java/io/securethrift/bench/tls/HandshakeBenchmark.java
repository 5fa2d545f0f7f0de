package io.securethrift.bench.tls;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.tls.StandardSslContextFactory;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.conscrypt.Conscrypt;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * New connections per second: TCP connect, TLS handshake (full or resumed), one small echo call, close. The call is
 * part of every connection because a TLS 1.3 client only learns its resumption ticket when it reads after the
 * handshake. The client side uses the TLS module's own context factory (provider, trust managers, protocols, AEAD
 * suites, hostname verification); a full handshake gets a fresh client context, and so an empty session cache, each
 * time, which costs tens of microseconds (a PEM trust file) against the milliseconds of the handshake.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HandshakeBenchmark {
  @Param({"none", "jsse", "conscrypt"})
  public String security;

  @Param({"full", "resumed"})
  public String handshake;

  /**
   * TLS 1.2 resumes with an abbreviated handshake (no key exchange); TLS 1.3 resumes with a pre-shared key but, on
   * both engines, still runs an ECDHE exchange (psk_dhe_ke), so it saves far less.
   */
  @Param({"TLSv1.3", "TLSv1.2"})
  public String protocol;

  private static final ByteBuffer PING = ByteBuffer.wrap(new byte[] {1});
  private EchoFixture fixture;
  private SecurityConfig client;
  private long connections;
  private long resumed;

  @Setup(Level.Trial)
  public void start() throws Exception {
    TlsBenchSetup setup = TlsBenchSetup.create();
    client = setup.config(security, false, List.of(protocol));
    fixture = EchoFixture.start(setup.config(security, true), client);
  }

  /**
   * Resumed handshakes (and plain connections) go through the library's own client factory, whose cached context
   * keeps the session cache users get; full handshakes build a fresh context so there is nothing to resume.
   */
  @Benchmark
  public ByteBuffer connect() throws IOException, TException, GeneralSecurityException {
    if (security.equals("none") || handshake.equals("resumed")) {
      try (EchoConnection connection = fixture.connect()) {
        connections++;
        resumed += connection.peerIdentity().tlsSessionResumed() ? 1 : 0;
        return connection.echo(PING.duplicate());
      }
    }
    Socket tcp = new Socket(EchoFixture.HOST, fixture.port());
    tcp.setTcpNoDelay(true);
    TTransport transport = new TFramedTransport(new TSocket(tls(tcp)));
    try {
      return EchoServer.client(transport).echo(PING.duplicate());
    } finally {
      transport.close();
    }
  }

  private SSLSocket tls(Socket tcp) throws IOException, GeneralSecurityException {
    SSLContext context = StandardSslContextFactory.INSTANCE.createContext(client.tls(), Role.CLIENT);
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(tcp, EchoFixture.HOST, fixture.port(), true);
    SSLParameters parameters = StandardSslContextFactory.INSTANCE.parameters(context, client.tls(), Role.CLIENT);
    socket.setSSLParameters(parameters);
    if (Conscrypt.isConscrypt(socket)) {
      Conscrypt.setUseSessionTickets(socket, true);
    }
    socket.startHandshake();
    return socket;
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    if (handshake.equals("resumed") && !security.equals("none")) {
      // A "resumed" score is only meaningful if the connections really resumed; say how many did.
      System.err.printf("%s %s: %d of %d connections resumed%n", security, protocol, resumed, connections);
    }
    fixture.close();
  }
}
