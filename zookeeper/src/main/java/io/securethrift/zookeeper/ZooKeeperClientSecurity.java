package io.securethrift.zookeeper;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SaslSettings;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.KerberosName;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.X509Util;

/**
 * Turns a securethrift {@link SecurityConfig} into the {@link ZKClientConfig} a ZooKeeper 3.9 client connects with,
 * so ZooKeeper clients and Thrift clients are secured by one configuration.
 *
 * <pre>{@code
 * ZKClientConfig zk = ZooKeeperClientSecurity.clientConfig(SecurityConfig.fromProperties(props));
 * ZooKeeper client = new ZooKeeper("localhost:2281", 30_000, event -> {}, zk);
 * }</pre>
 *
 * <p>Every setting travels in the returned object, none in system properties: TLS always uses the Netty client
 * ({@code zookeeper.clientCnxnSocket}), and so does mode {@code none}, so that measurements compare the same client
 * with and without TLS. The one JVM-wide effect is JAAS: ZooKeeper finds its login section only through
 * {@code javax.security.auth.login.Configuration.getConfiguration()}, so a Kerberos login built here is added to the
 * JVM's configuration under its own section name, next to (never instead of) the sections already there.
 * {@code java.security.krb5.conf} stays the caller's to set.
 */
public final class ZooKeeperClientSecurity {
  static final String NETTY_CLIENT = "org.apache.zookeeper.ClientCnxnSocketNetty";

  private ZooKeeperClientSecurity() {}

  /**
   * Builds the client configuration.
   *
   * @throws ConfigException if ZooKeeper cannot honour a setting: a SASL mechanism other than GSSAPI, a QOP list
   *     without {@code auth}, a key store alias, a PEM key store without its key in the same file, or engine
   *     {@code conscrypt} in a JVM where {@link ConscryptDefaultTls#install()} did not run (ZooKeeper's Netty client
   *     takes the JVM's default TLS provider and no other) or with TLSv1.3 enabled (see
   *     {@link ConscryptDefaultTls}), or engine {@code openssl} where Netty's OpenSSL engine (netty-tcnative) does
   *     not load
   */
  public static ZKClientConfig clientConfig(SecurityConfig config) {
    ZKClientConfig zk = new ZKClientConfig();
    zk.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, NETTY_CLIENT);
    zk.setProperty(ZKClientConfig.SECURE_CLIENT, Boolean.toString(config.mode().usesTls()));
    if (config.mode().usesTls()) {
      requireUsableEngine(config.tls());
      TlsKeys.put(config.tls(), "zookeeper.ssl.", zk::setProperty);
      TlsKeys.putFipsMode(config.tls(), X509Util.FIPS_MODE_PROPERTY, zk::setProperty);
      NettyOpenSsl.putProvider(config.tls(), "zookeeper.ssl.", zk::setProperty);
    }
    zk.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, Boolean.toString(config.mode().usesSasl()));
    if (config.mode().usesSasl()) {
      putSasl(config.sasl(), zk);
    }
    return zk;
  }

  private static void requireUsableEngine(TlsSettings tls) {
    if (tls.engine() == TlsEngine.OPENSSL) {
      NettyOpenSsl.requireAvailable();
    }
    if (tls.engine() != TlsEngine.CONSCRYPT) {
      return;
    }
    if (!ConscryptDefaultTls.isInstalled()) {
      throw new ConfigException(ConfigProperty.TLS_ENGINE.key(), "conscrypt: ZooKeeper 3.9's Netty client ignores"
          + " zookeeper.ssl.context.supplier.class and uses the JVM's default TLS provider; call"
          + " ConscryptDefaultTls.install() first thing in main, or use jsse");
    }
    ConscryptDefaultTls.requireTls12Only(tls);
  }

  private static void putSasl(SaslSettings sasl, ZKClientConfig zk) {
    SaslSupport.check(sasl);
    zk.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, KerberosSection.register(sasl, true));
    zk.setProperty(ZKClientConfig.ZK_SASL_CLIENT_USERNAME, sasl.serverPrimary());
    zk.setProperty(ZKClientConfig.ZK_SASL_CLIENT_CANONICALIZE_HOSTNAME, Boolean.toString(sasl.canonicalizeHostName()));
    // With the server host known the whole principal is fixed, so no look-up of the dialled address can change it.
    sasl.serverHost().ifPresent(host -> zk.setProperty(ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL,
        sasl.serverPrimary() + "/" + host + realmSuffix(sasl)));
  }

  private static String realmSuffix(SaslSettings sasl) {
    return sasl.kerberosPrincipal().flatMap(p -> KerberosName.parse(p).realm()).map(r -> "@" + r).orElse("");
  }
}
