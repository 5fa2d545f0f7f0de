package io.securethrift.accumulo.mac;

import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.LeafCertificateBuilder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
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
 * Certificates for a TLS MiniAccumuloCluster. Accumulo 2.1's clients and servers verify host names against the name
 * each tablet server registers, which is this machine's host name rather than {@code localhost}, so the server
 * certificate names every way this host is known; the harness's own server certificate names only
 * {@code localhost}. Stores are PKCS12 under the given password.
 */
public final class ClusterCertificates {
  private static final String STORE_TYPE = "PKCS12";

  private final TestCertificateAuthority ca;
  /** The servers' key store (certificate {@code CN=tserver}). */
  private final Path serverKeyStore;
  /** The client's key store (certificate {@code CN=ingest}). */
  private final Path clientKeyStore;
  /** The test CA, trusted by servers and clients. */
  private final Path trustStore;

  private ClusterCertificates(TestCertificateAuthority ca, Path serverKeyStore, Path clientKeyStore, Path trustStore) {
    this.ca = ca;
    this.serverKeyStore = serverKeyStore;
    this.clientKeyStore = clientKeyStore;
    this.trustStore = trustStore;
  }

  /** Issues a fresh CA's stores into {@code dir}. */
  public static ClusterCertificates issue(Path dir, char[] password) {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    return new ClusterCertificates(ca,
        serverCertificate(ca).writeKeyStore(dir, "tserver", KeyStoreFormat.PKCS12, password),
        clientCertificate(ca).writeKeyStore(dir, "ingest", KeyStoreFormat.PKCS12, password),
        ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, password));
  }

  /** A servers' certificate ({@code CN=tserver}) from {@code ca}, naming every way this host is known. */
  public static IssuedCertificate serverCertificate(TestCertificateAuthority ca) {
    LeafCertificateBuilder server = ca.leaf().commonName("tserver");
    localNames().forEach(server::addSubjectAlternativeName);
    return server.issue();
  }

  /** A client's certificate ({@code CN=ingest}) from {@code ca}. */
  public static IssuedCertificate clientCertificate(TestCertificateAuthority ca) {
    return ca.leaf().commonName("ingest").issue();
  }

  /** The CA that issued the certificates, for rotating them. */
  public TestCertificateAuthority ca() {
    return ca;
  }

  /** The servers' key store, which every server process loads once, when it starts. */
  public Path serverKeyStore() {
    return serverKeyStore;
  }

  /** The client's key store, which Accumulo's client reads again for every connection it opens. */
  public Path clientKeyStore() {
    return clientKeyStore;
  }

  /** The test CA's trust store, for clients that call the cluster's tablet servers directly. */
  public Path trustStore() {
    return trustStore;
  }

  /**
   * Two-way TLS (client certificates) with these stores: the site properties of every server and the {@code ssl.*}
   * client properties MAC's own client needs to reach them.
   */
  public void configure(MiniAccumuloConfigImpl config, char[] password) {
    String secret = new String(password);
    config.setProperty(Property.INSTANCE_RPC_SSL_ENABLED, "true");
    config.setProperty(Property.INSTANCE_RPC_SSL_CLIENT_AUTH, "true");
    config.setProperty(Property.RPC_SSL_KEYSTORE_PATH, serverKeyStore.toString());
    config.setProperty(Property.RPC_SSL_KEYSTORE_PASSWORD, secret);
    config.setProperty(Property.RPC_SSL_KEYSTORE_TYPE, STORE_TYPE);
    config.setProperty(Property.RPC_SSL_TRUSTSTORE_PATH, trustStore.toString());
    config.setProperty(Property.RPC_SSL_TRUSTSTORE_PASSWORD, secret);
    config.setProperty(Property.RPC_SSL_TRUSTSTORE_TYPE, STORE_TYPE);
    config.setClientProperty(ClientProperty.SSL_ENABLED, "true");
    config.setClientProperty(ClientProperty.SSL_KEYSTORE_PATH, clientKeyStore.toString());
    config.setClientProperty(ClientProperty.SSL_KEYSTORE_PASSWORD, secret);
    config.setClientProperty(ClientProperty.SSL_KEYSTORE_TYPE, STORE_TYPE);
    config.setClientProperty(ClientProperty.SSL_TRUSTSTORE_PATH, trustStore.toString());
    config.setClientProperty(ClientProperty.SSL_TRUSTSTORE_PASSWORD, secret);
    config.setClientProperty(ClientProperty.SSL_TRUSTSTORE_TYPE, STORE_TYPE);
  }

  private static Set<String> localNames() {
    try {
      InetAddress local = InetAddress.getLocalHost();
      return new LinkedHashSet<>(List.of("localhost", "127.0.0.1", local.getHostName(), local.getCanonicalHostName(),
          local.getHostAddress()));
    } catch (IOException e) {
      throw new UncheckedIOException("this host's name is unknown, so no server certificate can name it", e);
    }
  }
}
