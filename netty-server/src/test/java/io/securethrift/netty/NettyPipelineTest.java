package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The handlers a connection passes, in every mode: the handshake ones (HandshakeGuard, SaslNegotiation, and TLS's
 * HandshakeWatch and FirstWriteSplit) are there while the peer authenticates and gone once it has, so an
 * authenticated connection's calls pass only FrameCodec and CallDispatcher after the TLS layer.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyPipelineTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-dave".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static Path serverStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = ca.leaf().addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(dir, "pipeline-server", KeyStoreFormat.PKCS12, PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  enum Mode {
    NONE(List.of("WriteLimit", "FrameCodec", "CallDispatcher"),
        List.of("WriteLimit", "FrameCodec", "CallDispatcher")),
    TLS(List.of("HandshakeWatch", "SslHandler", "FirstWriteSplit", "WriteLimit", "HandshakeGuard", "FrameCodec",
        "CallDispatcher"), List.of("SslHandler", "WriteLimit", "FrameCodec", "CallDispatcher")),
    SASL(List.of("WriteLimit", "HandshakeGuard", "SaslNegotiation", "FrameCodec", "CallDispatcher"),
        List.of("WriteLimit", "FrameCodec", "CallDispatcher")),
    SASL_OVER_TLS(List.of("HandshakeWatch", "SslHandler", "FirstWriteSplit", "WriteLimit", "HandshakeGuard",
        "SaslNegotiation", "FrameCodec", "CallDispatcher"), List.of("SslHandler", "WriteLimit", "FrameCodec",
        "CallDispatcher"));

    /** Of a connection that has sent nothing; in mode none it is authenticated as it is accepted. */
    final List<String> silent;
    /** Of a connection that made a call. */
    final List<String> served;

    Mode(List<String> silent, List<String> served) {
      this.silent = silent;
      this.served = served;
    }

    SecurityConfig.Builder config(boolean server) {
      SecurityConfig.Builder b = SecurityConfig.builder().mode(SecurityMode.valueOf(name()));
      if (this == TLS || this == SASL_OVER_TLS) {
        b.trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
        if (server) {
          b.keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NONE);
        }
      }
      if (this == SASL || this == SASL_OVER_TLS) {
        b.saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost");
        if (server) {
          b.delegationTokenSecrets(SECRETS);
        } else {
          b.delegationToken(TOKEN);
        }
      }
      return b;
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theHandshakeHandlersLeaveOnceThePeerIsAuthenticated(Mode mode) throws Exception {
    try (NettyThriftServer server = NettyThriftServer.builder(mode.config(true).build(),
        new EchoService.Processor<>(new EchoHandler())).protocolFactory(new TCompactProtocol.Factory())
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0))) {
      try (Socket silent = new Socket("127.0.0.1", server.port())) {
        Await.until("the silent connection's pipeline", WAIT, () -> server.pipelines().equals(List.of(mode.silent)));
      }
      Await.until("the silent connection closed", WAIT, () -> server.connections() == 0);
      try (ClientTransportFactory clients = ClientTransportFactory.create(mode.config(false).build());
          SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        byte[] reply = new byte[3];
        client.echo(ByteBuffer.wrap(new byte[] {1, 2, 3})).get(reply);
        assertArrayEquals(new byte[] {1, 2, 3}, reply);
        assertEquals(List.of(mode.served), server.pipelines());
      }
    }
  }
}
