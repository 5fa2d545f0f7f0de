package io.securethrift.accumulo;

import io.securethrift.kdc.ca.IssuedCertificate;
import io.securethrift.kdc.ca.KeyStoreFormat;
import io.securethrift.kdc.ca.LeafCertificateBuilder;
import io.securethrift.kdc.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.accumulo.core.conf.ClientProperty;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Turns a MiniAccumuloCluster into one that requires TLS with client certificates, with real stores from a fresh test
 * CA, and writes the matching {@code ssl.*} client properties (MAC's own client needs them to reach its servers).
 */
final class TlsMac {
  private static final String PASSWORD = "store-secret";

  private TlsMac() {}

  static void configure(MiniAccumuloConfigImpl config, Path certs) {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    Path server = leaf(ca, "tserver").writeKeyStore(certs, "server", KeyStoreFormat.JKS, PASSWORD.toCharArray());
    Path client = ca.leaf().commonName("root").issue()
        .writeKeyStore(certs, "client", KeyStoreFormat.JKS, PASSWORD.toCharArray());
    Path trust = ca.writeTrustStore(certs, KeyStoreFormat.JKS, PASSWORD.toCharArray());
    config.setProperty(Property.INSTANCE_RPC_SSL_ENABLED, "true");
    config.setProperty(Property.INSTANCE_RPC_SSL_CLIENT_AUTH, "true");
    config.setProperty(Property.RPC_SSL_KEYSTORE_PATH, server.toString());
    config.setProperty(Property.RPC_SSL_KEYSTORE_PASSWORD, PASSWORD);
    config.setProperty(Property.RPC_SSL_TRUSTSTORE_PATH, trust.toString());
    config.setProperty(Property.RPC_SSL_TRUSTSTORE_PASSWORD, PASSWORD);
    config.setClientProperty(ClientProperty.SSL_ENABLED, "true");
    config.setClientProperty(ClientProperty.SSL_KEYSTORE_PATH, client.toString());
    config.setClientProperty(ClientProperty.SSL_KEYSTORE_PASSWORD, PASSWORD);
    config.setClientProperty(ClientProperty.SSL_TRUSTSTORE_PATH, trust.toString());
    config.setClientProperty(ClientProperty.SSL_TRUSTSTORE_PASSWORD, PASSWORD);
  }

  /** A server certificate naming every way this host may be addressed, since securethrift verifies host names. */
  private static IssuedCertificate leaf(TestCertificateAuthority ca, String name) {
    InetAddress local;
    try {
      local = InetAddress.getLocalHost();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve the local host", e);
    }
    Set<String> names = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", local.getHostName(),
        local.getCanonicalHostName(), local.getHostAddress()));
    LeafCertificateBuilder builder = ca.leaf().commonName(name);
    names.forEach(builder::addSubjectAlternativeName);
    return builder.issue();
  }
}
