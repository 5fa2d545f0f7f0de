package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.netty.NettyThriftServer;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.Writer;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.accumulo.core.client.security.tokens.AuthenticationToken;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.clientImpl.Credentials;
import org.apache.accumulo.core.clientImpl.thrift.ClientService;
import org.apache.accumulo.core.clientImpl.thrift.SecurityErrorCode;
import org.apache.accumulo.core.clientImpl.thrift.ThriftSecurityException;
import org.apache.accumulo.core.conf.ConfigurationCopy;
import org.apache.accumulo.core.conf.DefaultConfiguration;
import org.apache.accumulo.core.data.InstanceId;
import org.apache.accumulo.core.rpc.SaslConnectionParams;
import org.apache.accumulo.core.rpc.SslConnectionParams;
import org.apache.accumulo.core.rpc.ThriftUtil;
import org.apache.accumulo.core.rpc.clients.ThriftClientTypes;
import org.apache.accumulo.core.securityImpl.thrift.TCredentials;
import org.apache.accumulo.core.util.HostAndPort;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Accumulo 2.1.4's own client against the non-blocking server (issue #12): the transports Accumulo's
 * {@code ThriftUtil.createClientTransport} opens from its configuration (framed TCP, TLS with a client certificate,
 * Kerberos through a UGI login), and Accumulo's generated {@code ClientService} stubs multiplexed as {@code client},
 * calling a {@link NettyThriftServer} that hosts Accumulo's {@code ClientService.Processor} and takes its own
 * configuration from an {@code accumulo.properties} file, as a tablet server would.
 */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class NettyServerAccumuloClientTest {
  private static final InstanceId INSTANCE = InstanceId.of("0b5e44ee-2c8f-4bc4-a1e5-e1b5a1c9c0de");
  private static final String STORE_PASSWORD = "store-netty";
  private static final String ROOT_PASSWORD = "root-netty";
  private static final int TIMEOUT_MS = 30_000;

  @TempDir Path dir;
  /** What the server's {@code authenticate} saw: the credential's principal beside the transport's identity. */
  private final List<String> seen = new CopyOnWriteArrayList<>();

  @Test
  void framedTcp() throws Exception {
    try (NettyThriftServer server = start(Map.of())) {
      assertPasswordCalls(ThriftUtil.createClientTransport(address(server), TIMEOUT_MS, null, null));
      assertEquals(List.of("root by none", "root by none"), seen);
    }
  }

  @Test
  void tlsWithClientCertificates(TestCertificateAuthority ca, @CertificateDirectory Path certs) throws Exception {
    char[] password = STORE_PASSWORD.toCharArray();
    Path serverStore = ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(certs, "tserver", KeyStoreFormat.JKS, password);
    Path clientStore = ca.leaf().commonName("accumulo-client").issue()
        .writeKeyStore(certs, "accumulo-client", KeyStoreFormat.JKS, password);
    Path trustStore = ca.writeTrustStore(certs, KeyStoreFormat.JKS, password);
    Map<String, String> tls = Map.of("instance.rpc.ssl.enabled", "true", "instance.rpc.ssl.clientAuth", "true",
        "rpc.javax.net.ssl.trustStore", trustStore.toString(), "rpc.javax.net.ssl.trustStorePassword", STORE_PASSWORD,
        "rpc.javax.net.ssl.keyStorePassword", STORE_PASSWORD);
    try (NettyThriftServer server = start(with(tls, "rpc.javax.net.ssl.keyStore", serverStore.toString()))) {
      assertPasswordCalls(ThriftUtil.createClientTransport(address(server), TIMEOUT_MS,
          accumuloTls(with(tls, "rpc.javax.net.ssl.keyStore", clientStore.toString())), null));
      assertEquals(List.of("root by tls accumulo-client", "root by tls accumulo-client"), seen);

      // The same client without its certificate is refused in the handshake; the server serves the next one.
      Map<String, String> noCertificate = with(tls, "instance.rpc.ssl.clientAuth", "false");
      assertThrows(TTransportException.class, () -> assertPasswordCalls(ThriftUtil.createClientTransport(
          address(server), TIMEOUT_MS, accumuloTls(noCertificate), null)));
      Await.until("the server counted the refused handshake", Duration.ofSeconds(10),
          () -> server.counters().failures(AuthFailure.TLS_ALERT) == 1);
      assertPasswordCalls(ThriftUtil.createClientTransport(address(server), TIMEOUT_MS,
          accumuloTls(with(tls, "rpc.javax.net.ssl.keyStore", clientStore.toString())), null));
      assertEquals(4, seen.size(), "only the clients with a certificate reached the service: " + seen);
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  @UsesJdkGssapi
  void kerberosThroughAUgiLogin(QualityOfProtection qop, EmbeddedKdc kdc) throws Exception {
    HadoopUgi.assumeRuns(); // Accumulo's Kerberos client runs as a UGI login
    KerberosIdentity root = kdc.principal("root");
    try (NettyThriftServer server = start(kerberosSite(kdc, qop))) {
      UserGroupInformation ugi = ugiLogin(root);
      ClientService.Client client = openAsAccumulo(ugi, server, qop);
      try {
        assertEquals(INSTANCE.canonical(), client.getInstanceId());
        TCredentials credentials = new Credentials(root.principal(), ugi.doAs(
            (PrivilegedExceptionAction<AuthenticationToken>) KerberosToken::new)).toThrift(INSTANCE);
        assertTrue(client.authenticate(null, credentials));
        TCredentials mallory = credentials.deepCopy().setPrincipal(kdc.qualify("mallory"));
        ThriftSecurityException refused = assertThrows(ThriftSecurityException.class,
            () -> client.authenticate(null, mallory),
            "the credentials must name the principal the SASL session authenticated");
        assertEquals(SecurityErrorCode.BAD_CREDENTIALS, refused.getCode());
      } finally {
        client.getInputProtocol().getTransport().close();
      }
      assertEquals(List.of(root.principal() + " by sasl " + root.principal() + " " + qop.token(),
          kdc.qualify("mallory") + " by sasl " + root.principal() + " " + qop.token()), seen);
    } finally {
      UserGroupInformation.reset();
    }
  }

  /** An Accumulo client configured for {@code auth} cannot talk a server that requires privacy down to it. */
  @Test
  @UsesJdkGssapi
  void kerberosClientBelowTheServersQopIsRefused(EmbeddedKdc kdc) throws Exception {
    HadoopUgi.assumeRuns(); // Accumulo's Kerberos client runs as a UGI login
    try (NettyThriftServer server = start(kerberosSite(kdc, QualityOfProtection.AUTH_CONF))) {
      UserGroupInformation ugi = ugiLogin(kdc.principal("root"));
      TTransportException e = assertThrows(TTransportException.class,
          () -> openAsAccumulo(ugi, server, QualityOfProtection.AUTH));
      assertTrue(e.getMessage().contains("No common protection layer"), e.getMessage());
      Await.until("the server counted the refused handshake", Duration.ofSeconds(10),
          () -> server.counters().failures(AuthFailure.QOP_REFUSED_BY_PEER) == 1);
      assertEquals(1, server.counters().failures(), server.counters().toString());
      assertEquals(0, server.counters().successes(), server.counters().toString());
      ClientService.Client client = openAsAccumulo(ugi, server, QualityOfProtection.AUTH_CONF);
      try {
        assertEquals(INSTANCE.canonical(), client.getInstanceId(), "a client at the server's level is served next");
      } finally {
        client.getInputProtocol().getTransport().close();
      }
      assertTrue(seen.isEmpty(), "the refused client reached no call: " + seen);
    } finally {
      UserGroupInformation.reset();
    }
  }

  /**
   * A tablet server's Kerberos site settings. Accumulo's client asks for a ticket to
   * {@code accumulo/<canonical name of the address it dials>}.
   */
  private static Map<String, String> kerberosSite(EmbeddedKdc kdc, QualityOfProtection qop) throws IOException {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", canonicalLocalhost());
    return Map.of("instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", qop.token(),
        "general.kerberos.principal", service.principal(), "general.kerberos.keytab", service.keytab().toString());
  }

  /** Hadoop's login from a keytab, as an Accumulo client configured with {@code auth.type=kerberos} makes it. */
  private static UserGroupInformation ugiLogin(KerberosIdentity user) throws IOException {
    Configuration hadoop = new Configuration(false);
    hadoop.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(hadoop);
    // The process-wide login user, as Accumulo's client expects: after a failed connection it re-logs that user in.
    UserGroupInformation.loginUserFromKeytab(user.principal(), user.keytab().toString());
    return UserGroupInformation.getLoginUser();
  }

  /** Accumulo's own Kerberos connection: its SASL parameters and transport, opened as the UGI user. */
  private static ClientService.Client openAsAccumulo(UserGroupInformation ugi, NettyThriftServer server,
      QualityOfProtection qop) throws Exception {
    HostAndPort address = HostAndPort.fromParts(canonicalLocalhost(), server.port());
    try {
      return ugi.doAs((PrivilegedExceptionAction<ClientService.Client>) () -> ThriftUtil.createClient(
          ThriftClientTypes.CLIENT, ThriftUtil.createClientTransport(address, TIMEOUT_MS, null,
              accumuloSasl(qop, new KerberosToken()))));
    } catch (UndeclaredThrowableException e) {
      // UGI wraps what is neither an IOException nor an InterruptedException, such as Thrift's exceptions.
      throw e.getCause() instanceof TTransportException ? (TTransportException) e.getCause() : e;
    }
  }

  private static String canonicalLocalhost() throws IOException {
    return InetAddress.getByName("localhost").getCanonicalHostName();
  }

  /** Instance id, a password that is accepted and one that is refused, and a call this service does not serve. */
  private void assertPasswordCalls(TTransport transport) throws Exception {
    ClientService.Client client = ThriftUtil.createClient(ThriftClientTypes.CLIENT, transport);
    try {
      assertEquals(INSTANCE.canonical(), client.getInstanceId());
      assertTrue(client.authenticate(null, new Credentials("root", new PasswordToken(ROOT_PASSWORD))
          .toThrift(INSTANCE)));
      ThriftSecurityException refused = assertThrows(ThriftSecurityException.class, () -> client.authenticate(null,
          new Credentials("root", new PasswordToken("wrong")).toThrift(INSTANCE)));
      assertEquals(SecurityErrorCode.BAD_CREDENTIALS, refused.getCode());
      TApplicationException unserved = assertThrows(TApplicationException.class, client::getZooKeepers);
      assertTrue(unserved.getMessage().contains("getZooKeepers"), unserved.getMessage());
      assertEquals(INSTANCE.canonical(), client.getInstanceId(), "the connection survives a failed call");
    } finally {
      transport.close();
    }
  }

  /** A non-blocking server configured from {@code accumulo.properties}, hosting Accumulo's ClientService. */
  private NettyThriftServer start(Map<String, String> site) throws Exception {
    Path file = dir.resolve("accumulo.properties");
    Properties properties = new Properties();
    properties.putAll(site);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(out, null);
    }
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(file);
    TMultiplexedProcessor services = new TMultiplexedProcessor();
    services.registerProcessor("client", new ClientService.Processor<>(clientService()));
    return NettyThriftServer.builder(config, services).protocolFactory(new TCompactProtocol.Factory())
        .workerThreads(2).eventLoopThreads(1).shutdownGrace(Duration.ofSeconds(2)).build()
        .start(new InetSocketAddress("127.0.0.1", 0));
  }

  /**
   * The calls a tablet server's ClientService answers here: its instance id, and {@code authenticate} as Accumulo's
   * checks it (a password, or a Kerberos session whose principal is the credential's). Other calls fail as unknown.
   */
  private ClientService.Iface clientService() {
    return (ClientService.Iface) Proxy.newProxyInstance(ClientService.Iface.class.getClassLoader(),
        new Class<?>[] {ClientService.Iface.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getInstanceId":
              return INSTANCE.canonical();
            case "authenticate":
              return authenticate((TCredentials) args[1]);
            default:
              throw new TApplicationException(TApplicationException.UNKNOWN_METHOD, method.getName()
                  + " is not served by this test's tablet server");
          }
        });
  }

  private boolean authenticate(TCredentials credentials) throws ThriftSecurityException {
    PeerIdentity peer = PeerIdentity.current().orElseThrow();
    seen.add(credentials.getPrincipal() + " by " + describe(peer));
    // A Kerberos token carries no secret: the server trusts the session's principal (which needs no UGI login here).
    boolean valid = peer.mode() == SecurityMode.SASL
        ? credentials.getTokenClassName().equals(KerberosToken.class.getName())
            && credentials.getPrincipal().equals(peer.principal().orElse(null))
        : credentials.getTokenClassName().equals(PasswordToken.class.getName())
            && Credentials.fromThrift(credentials).getToken().equals(new PasswordToken(ROOT_PASSWORD));
    if (!valid) {
      throw new ThriftSecurityException(credentials.getPrincipal(), SecurityErrorCode.BAD_CREDENTIALS);
    }
    return true;
  }

  private static String describe(PeerIdentity peer) {
    StringBuilder text = new StringBuilder(peer.mode().toString());
    peer.principal().ifPresent(p -> text.append(' ').append(p));
    peer.qop().ifPresent(q -> text.append(' ').append(q.token()));
    return text.toString();
  }

  /** Accumulo's client TLS parameters from the same site properties a tablet server reads. */
  private static SslConnectionParams accumuloTls(Map<String, String> site) {
    ConfigurationCopy config = new ConfigurationCopy(DefaultConfiguration.getInstance());
    site.forEach(config::set);
    return SslConnectionParams.forClient(config);
  }

  /** Accumulo's client SASL parameters, as {@code accumulo-client.properties} gives them. */
  private static SaslConnectionParams accumuloSasl(QualityOfProtection qop, AuthenticationToken token) {
    Properties client = new Properties();
    client.setProperty("sasl.enabled", "true");
    client.setProperty("sasl.qop", qop.token());
    client.setProperty("sasl.kerberos.server.primary", "accumulo");
    return new SaslConnectionParams(client, token);
  }

  private static HostAndPort address(NettyThriftServer server) {
    return HostAndPort.fromParts("localhost", server.port());
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    HashMap<String, String> copy = new HashMap<>(base);
    copy.put(key, value);
    return Map.copyOf(copy);
  }
}
