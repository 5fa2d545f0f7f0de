package io.securethrift.accumulo.otherjvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.accumulo.otherjvm.OtherJvmMac.Line;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.LeafCertificateBuilder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * securethrift clients calling a real Accumulo 1.7.4 tablet server that runs in another JVM on 1.7's own class path
 * (libthrift 0.9.1), configured from the files that cluster wrote ({@code client.conf}, {@code accumulo-site.xml}),
 * in each of 1.7's security levels. Each test starts and stops its own cluster (about 5 s).
 */
@MiniCluster
class Accumulo17InteropTest {
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private static final String ROOT_PASSWORD = "root-17";
  private static final String STORE_PASSWORD = "store-17";
  private static final String HANDLERS = "site.instance.security.";
  private static final String HANDLER_PACKAGE = "org.apache.accumulo.server.security.handler.Kerberos";

  @Test
  void plainClientConf() throws Exception {
    try (OtherJvmMac mac = start(List.of("root.password=" + ROOT_PASSWORD), "")) {
      SecurityConfig config = AccumuloSecurityConfig.fromClientConf(mac.file("CLIENT_CONF"));
      assertEquals(SecurityMode.NONE, config.mode());
      callWithPassword(config, mac);
    }
  }

  @Test
  void tlsWithClientCertificates(@TempDir Path certs) throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    LeafCertificateBuilder server = ca.leaf().commonName("tserver");
    localNames().forEach(server::addSubjectAlternativeName);
    char[] password = STORE_PASSWORD.toCharArray();
    Path keyStore = server.issue().writeKeyStore(certs, "server", KeyStoreFormat.JKS, password);
    Path trustStore = ca.writeTrustStore(certs, KeyStoreFormat.JKS, password);
    try (OtherJvmMac mac = start(List.of("root.password=" + ROOT_PASSWORD,
        "site.instance.rpc.ssl.enabled=true", "site.instance.rpc.ssl.clientAuth=true",
        "site.rpc.javax.net.ssl.keyStore=" + keyStore, "site.rpc.javax.net.ssl.keyStorePassword=" + STORE_PASSWORD,
        "site.rpc.javax.net.ssl.trustStore=" + trustStore,
        "site.rpc.javax.net.ssl.trustStorePassword=" + STORE_PASSWORD,
        // 1.7's defaults are TLSv1 and TLSv1.1, which JDK 17 disables.
        "site.rpc.ssl.client.protocol=TLSv1.2", "site.rpc.ssl.server.enabled.protocols=TLSv1.2,TLSv1.3"), "")) {
      SecurityConfig config = AccumuloSecurityConfig.fromSiteXml(mac.file("SITE"));
      assertEquals(SecurityMode.TLS, config.mode());
      callWithPassword(config, mac);
      SecurityConfig withoutCertificate = SecurityConfig.builder().mode(SecurityMode.TLS)
          .trustStore(trustStore, StoreType.JKS, Secret.of(STORE_PASSWORD)).build();
      assertThrows(Exception.class, () -> callWithPassword(withoutCertificate, mac),
          "1.7 with instance.rpc.ssl.clientAuth=true refuses a client without a certificate");
    }
  }

  @Test
  void saslAuthConfWithKerberos() throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    String host = InetAddress.getLocalHost().getCanonicalHostName();
    // 1.7 tablet servers register the canonical host name, and clients ask for a ticket to accumulo/<that name>.
    KerberosIdentity service = kdc.servicePrincipal("accumulo", host);
    KerberosIdentity root = kdc.principal("root");
    String jvm = "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED -Djava.security.krb5.conf="
        + kdc.krb5Conf();
    try (OtherJvmMac mac = start(List.of("root.password=" + ROOT_PASSWORD,
        "root.user=" + root.principal(), "core-site.kerberos=true",
        HANDLERS + "authenticator=" + HANDLER_PACKAGE + "Authenticator",
        HANDLERS + "authorizor=" + HANDLER_PACKAGE + "Authorizor",
        HANDLERS + "permissionHandler=" + HANDLER_PACKAGE + "PermissionHandler",
        "site.instance.rpc.sasl.enabled=true", "site.rpc.sasl.qop=auth-conf",
        "site.general.kerberos.principal=" + service.principal(),
        "site.general.kerberos.keytab=" + service.keytab()), jvm)) {
      SecurityConfig config = AccumuloSecurityConfig.fromClientConf(mac.file("CLIENT_CONF")).toBuilder()
          .kerberosLogin(root.principal(), root.keytab()).build();
      assertEquals(SecurityMode.SASL, config.mode());
      assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
      try (ClientTransportFactory factory = ClientTransportFactory.create(config);
          ClientServiceCalls calls = ClientServiceCalls.open(factory, mac.tabletServer(), false)) {
        assertEquals(QualityOfProtection.AUTH_CONF, calls.transport().peerIdentity().qop().orElseThrow());
        assertEquals(mac.instanceId(), calls.getInstanceId());
        assertTrue(calls.authenticate(ClientServiceCalls.kerberos(root.principal(), mac.instanceId())));
        assertThrows(ClientServiceCalls.SecurityException.class,
            () -> calls.authenticate(ClientServiceCalls.kerberos(kdc.qualify("mallory"), mac.instanceId())),
            "the credentials must name the principal the SASL session authenticated");
      }
    }
  }

  private static OtherJvmMac start(List<String> settings, String jvmOptions) throws IOException {
    return OtherJvmMac.start(Line.ACCUMULO_1_7, settings, List.of(), jvmOptions);
  }

  private static void callWithPassword(SecurityConfig config, OtherJvmMac mac) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        ClientServiceCalls calls = ClientServiceCalls.open(factory, mac.tabletServer(), false)) {
      assertEquals(config.mode(), calls.transport().peerIdentity().mode());
      assertEquals(mac.instanceId(), calls.getInstanceId());
      assertTrue(calls.authenticate(ClientServiceCalls.password("root", ROOT_PASSWORD, mac.instanceId())));
      assertThrows(ClientServiceCalls.SecurityException.class,
          () -> calls.authenticate(ClientServiceCalls.password("root", "wrong", mac.instanceId())));
    }
  }

  private static LinkedHashSet<String> localNames() throws IOException {
    InetAddress local = InetAddress.getLocalHost();
    return new LinkedHashSet<>(List.of("localhost", "127.0.0.1", local.getHostName(), local.getCanonicalHostName()));
  }
}
