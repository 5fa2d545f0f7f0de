package io.securethrift.accumulo.otherjvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.accumulo.DropIn;
import io.securethrift.accumulo.conscrypt.ConscryptDropIn;
import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.tls.internal.ConscryptProvider;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.accumulo.core.conf.Property;
import org.conscrypt.Conscrypt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * securethrift clients calling real Accumulo 3.0 tablet servers, in another JVM, with and without TLS: one cluster
 * with two-way TLS (client certificates, JSSE on the servers) set up as {@code MacTlsInteropTest}'s 2.1 cluster, one
 * more tablet server that runs the Conscrypt drop-in (as {@code MacConscryptDropInTest}'s servers do) and one that
 * runs without TLS. securethrift's client runs on JSSE and on Conscrypt against both TLS servers, configured from the
 * cluster's own files.
 */
@MiniCluster
class Accumulo30TlsInteropTest {
  private static final Logger LOG = LoggerFactory.getLogger(Accumulo30TlsInteropTest.class);
  private static final char[] STORE_PASSWORD = "store-30".toCharArray();
  private static final String CONSCRYPT = "conscrypt";
  private static final String PLAIN = "plain";
  @TempDir static Path files;
  private static ClusterCertificates certificates;
  private static OtherJvmMac mac;

  @BeforeAll
  static void start() throws Exception {
    certificates = ClusterCertificates.issue(files, STORE_PASSWORD);
    mac = Accumulo30.cluster(config -> certificates.configure(config, STORE_PASSWORD))
        .tabletServer(CONSCRYPT, Map.of(Property.RPC_SSL_CIPHER_SUITES.getKey(), DropIn.SERVER_CIPHER_SUITES),
            Map.of("java.security.properties", DropInSecurityFile.write(files.resolve("conscrypt.security"),
                List.of(ConscryptDropIn.NAME)).toString()))
        // The manager calls every tablet server over TLS. A plain one reads the ClientHello as the length of a
        // ~370 MB frame; at the default limit (1G) its Thrift server tries to buffer it in a 256 MB heap and stops.
        // 16M refuses the frame.
        .tabletServer(PLAIN, Map.of(Property.INSTANCE_RPC_SSL_ENABLED.getKey(), "false",
            Property.TSERV_MAX_MESSAGE_SIZE.getKey(), "16M"), Map.of())
        // The drop-in, the securethrift-tls jar holding the JVM's one Conscrypt provider, and Conscrypt's jar: what an
        // operator puts in Accumulo's lib/ (docs/accumulo.md).
        .classPath(Accumulo30.codeSource(ConscryptFirstProvider.class), Accumulo30.codeSource(ConscryptProvider.class),
            Accumulo30.codeSource(Conscrypt.class))
        .start();
    LOG.warn("Accumulo 3.0 MiniAccumuloCluster (ssl with client auth; Conscrypt and plain tablet servers) started"
        + " in {} ms", mac.startTime().toMillis());
  }

  @AfterAll
  static void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"jsse", "conscrypt"})
  void clientPropertiesOfTheClusterAuthenticateWithACertificate(TlsEngine engine) throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.file("CLIENT_PROPERTIES"));
    assertEquals(SecurityMode.TLS, config.mode());
    assertTrue(config.tls().keyStore().isPresent(), "ssl.keystore.path: the client presents its certificate");
    assertTrue(config.tls().hostnameVerification());
    SecurityConfig onEngine = config.toBuilder().tlsEngine(engine).build();
    callWithPassword(onEngine, mac.tabletServer());
    callWithPassword(onEngine, mac.answer("TSERVER." + CONSCRYPT));
  }

  @Test
  void siteFileOfTheClusterWorksForAServerNodesClient() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(mac.file("SITE"));
    assertEquals(SecurityMode.TLS, config.mode());
    callWithPassword(config, mac.tabletServer());
  }

  /** The server securethrift's JSSE and Conscrypt clients call in {@code clientPropertiesOfTheCluster...}. */
  @Test
  void conscryptTabletServerServesThriftThroughTheDropIn() throws Exception {
    Properties site = new Properties();
    try (Reader in = Files.newBufferedReader(mac.file("SITE." + CONSCRYPT), StandardCharsets.UTF_8)) {
      site.load(in);
    }
    assertEquals(DropIn.SERVER_CIPHER_SUITES, site.getProperty(Property.RPC_SSL_CIPHER_SUITES.getKey()),
        "a server that enables these suites and answers is Conscrypt's");
    assertTrue(tabletServerStandardError().contains(DropIn.THRIFT_ON_CONSCRYPT),
        "a tablet server's standard error names the drop-in's SSLContext for Thrift");
  }

  @Test
  void plainTabletServerAnswersAndAuthenticates() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromAccumuloProperties(mac.file("SITE." + PLAIN));
    assertEquals(SecurityMode.NONE, config.mode());
    callWithPassword(config, mac.answer("TSERVER." + PLAIN));
  }

  @Test
  void clientWithoutCertificateIsRefused() {
    SecurityConfig withoutCertificate = SecurityConfig.builder().mode(SecurityMode.TLS)
        .trustStore(certificates.trustStore(), StoreType.PKCS12, Secret.of(new String(STORE_PASSWORD))).build();
    Accumulo30.assertRefuses(mac.tabletServer(), withoutCertificate);
    Accumulo30.assertRefuses(mac.answer("TSERVER." + CONSCRYPT), withoutCertificate);
  }

  @Test
  void plainClientIsRefused() {
    Accumulo30.assertRefuses(mac.tabletServer(), SecurityConfig.builder().build());
    Accumulo30.assertRefuses(mac.answer("TSERVER." + CONSCRYPT), SecurityConfig.builder().build());
  }

  /** The calls of {@code MacPlainInteropTest}: instance id, root's password, a wrong one, and a call after it. */
  private static void callWithPassword(SecurityConfig config, String tabletServer) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        ClientServiceCalls calls = Accumulo30.calls(factory, tabletServer)) {
      assertEquals(config.mode(), calls.transport().peerIdentity().mode());
      assertEquals(mac.instanceId(), calls.getInstanceId());
      ClientServiceCalls.Credentials root = ClientServiceCalls.password("root", Accumulo30.ROOT_PASSWORD,
          mac.instanceId());
      assertTrue(calls.authenticate(root));
      ClientServiceCalls.SecurityException wrong = assertThrows(ClientServiceCalls.SecurityException.class,
          () -> calls.authenticate(ClientServiceCalls.password("root", "wrong", mac.instanceId())));
      assertEquals(ClientServiceCalls.BAD_CREDENTIALS, wrong.code());
      assertTrue(calls.listLocalUsers(root).contains("root"), "the connection stays usable after a rejected call");
    }
  }

  /** What the tablet servers wrote to standard error so far (MAC 3.0 keeps it in {@code TabletServer_<n>.err}). */
  private static String tabletServerStandardError() throws Exception {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> list = Files.list(mac.file("LOGS"))) {
      list.filter(p -> p.getFileName().toString().matches("TabletServer_.*\\.err")).forEach(files::add);
    }
    StringBuilder text = new StringBuilder();
    for (Path file : files) {
      text.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
    }
    return text.toString();
  }
}
