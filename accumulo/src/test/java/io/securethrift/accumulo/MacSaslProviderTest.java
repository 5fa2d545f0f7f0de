package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.accumulo.mac.ServerSecurityFile;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.sasl.SaslProviderDropIn;
import io.securethrift.sasl.SecureThriftSaslProvider;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.accumulo.core.client.Accumulo;
import org.apache.accumulo.core.client.AccumuloClient;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.accumulo.core.conf.ClientProperty;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.trace.thrift.TInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified Accumulo 2.1.4 (MiniAccumuloCluster, Kerberos, {@code rpc.sasl.qop=auth-conf}) with nothing added but
 * securethrift's SASL provider, through its security file, in every server JVM, as an operator would add it with
 * {@code -Djava.security.properties}: securethrift's client gets AES-GCM privacy from the tablet server, and
 * Accumulo's own client, with the provider installed in this JVM, writes and reads back a table on AES-GCM.
 */
@MiniCluster
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MacSaslProviderTest {
  @RegisterExtension static final KdcExtension KDC = KdcExtension.builder().build();
  private static final int ROWS = 1000;
  private MiniAccumulo mac;
  private String root;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    EmbeddedKdc kdc = KDC.kdc();
    root = kdc.qualify(KerberosMac.ROOT);
    Path file = DropInSecurityFile.write(dir.resolve("sasl.security"), List.of(SaslProviderDropIn.NAME));
    mac = MiniAccumulo.start(config -> {
      KerberosMac.configure(config, kdc, QualityOfProtection.AUTH_CONF.token());
      ServerSecurityFile.install(config, file);
    });
  }

  @AfterAll
  void stop() throws Exception {
    if (mac != null) {
      mac.close();
    }
  }

  @Test
  void securethriftsClientGetsAesGcmFromAnUnmodifiedTabletServer() throws Exception {
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.clientProperties()).toBuilder()
        .saslPrivacy(SaslPrivacy.AES_GCM).build();
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        AccumuloRpc rpc = AccumuloRpc.open(factory, mac.tabletServers().get(0))) {
      assertEquals(Optional.of(SaslPrivacy.AES_GCM), rpc.transport().peerIdentity().privacy());
      assertTrue(rpc.client().authenticate(new TInfo(), mac.kerberosCredentials(root)));
    }
  }

  @Test
  void accumulosOwnClientWritesAndReadsOnAesGcm() throws Exception {
    Properties client = new Properties();
    try (InputStream in = Files.newInputStream(mac.clientProperties())) {
      client.load(in);
    }
    long before = SecureThriftSaslProvider.negotiations("auth-conf/aes-gcm");
    boolean installed = SecureThriftSaslProvider.install();
    try {
      Configuration hadoop = new Configuration(false);
      hadoop.set("hadoop.security.authentication", "kerberos");
      UserGroupInformation.setConfiguration(hadoop);
      UserGroupInformation.loginUserFromKeytab(client.getProperty(ClientProperty.AUTH_PRINCIPAL.getKey()),
          client.getProperty(ClientProperty.AUTH_TOKEN.getKey()));
      try (AccumuloClient accumulo = Accumulo.newClient().from(client).as(root, new KerberosToken()).build()) {
        String table = "provider";
        accumulo.tableOperations().create(table);
        try (BatchWriter writer = accumulo.createBatchWriter(table)) {
          for (int i = 0; i < ROWS; i++) {
            Mutation m = new Mutation(String.format("row%05d", i));
            m.put("f", "q", "value " + i);
            writer.addMutation(m);
          }
        }
        int read = 0;
        try (Scanner scanner = accumulo.createScanner(table, Authorizations.EMPTY)) {
          for (Map.Entry<Key, Value> entry : scanner) {
            assertEquals(String.format("row%05d", read), entry.getKey().getRow().toString());
            assertEquals("value " + read, entry.getValue().toString());
            read++;
          }
        }
        assertEquals(ROWS, read);
      }
      assertTrue(SecureThriftSaslProvider.negotiations("auth-conf/aes-gcm") > before,
          "Accumulo's client negotiated auth-conf on AES-GCM with the servers");
    } finally {
      UserGroupInformation.reset();
      if (installed) {
        Security.removeProvider(SecureThriftSaslProvider.NAME);
      }
    }
  }
}
