package io.securethrift.zookeeper;

import io.securethrift.core.SecurityConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * Runs a ZooKeeper server (standalone or ensemble member, as zoo.cfg says) after applying the securethrift settings
 * ZooKeeper can only take JVM-wide: Conscrypt as the JVM's TLS provider for engine {@code conscrypt} (and, for
 * engine {@code openssl}, a check that Netty's OpenSSL engine loads), and the
 * Kerberos login section built in code (no JAAS file) for SASL. {@code java.security.krb5.conf} is still passed
 * with {@code -D}, as for any Kerberos JVM.
 *
 * <p>Usage: {@code java -cp <class path> io.securethrift.zookeeper.SecureZooKeeperServerMain <zoo.cfg>}, with a
 * zoo.cfg from {@link ZooKeeperServerConfig} (or any zoo.cfg whose {@code securethriftConfig} names a securethrift
 * properties file). Then {@link QuorumPeerMain} takes over, exit codes included.
 */
public final class SecureZooKeeperServerMain {
  private SecureZooKeeperServerMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: SecureZooKeeperServerMain <zoo.cfg>");
      System.exit(2);
    }
    Properties zooCfg = load(Path.of(args[0]));
    SecurityConfig security = securityOf(zooCfg);
    if (security.mode().usesTls() && ConscryptDefaultTls.chosen(security.tls())) {
      ConscryptDefaultTls.install();
    }
    // Checked here, before ZooKeeper starts: ZooKeeper would only log the failure of each client's handshake.
    if (NettyOpenSsl.OPENSSL.equals(zooCfg.getProperty("ssl." + NettyOpenSsl.SSL_PROVIDER))) {
      NettyOpenSsl.requireAvailable();
    }
    if (security.mode().usesSasl()) {
      KerberosSection.register(security.sasl(), false);
      if (Boolean.parseBoolean(zooCfg.getProperty(ZooKeeperServerConfig.QUORUM_SASL))) {
        KerberosSection.register(security.sasl(), true); // the learner's login: it asks for other peers' tickets
      }
    }
    QuorumPeerMain.main(args);
  }

  private static SecurityConfig securityOf(Properties zooCfg) throws IOException {
    String file = zooCfg.getProperty(ZooKeeperServerConfig.SECURITY_FILE_KEY);
    return file == null ? SecurityConfig.builder().build() : SecurityConfig.fromProperties(asMap(load(Path.of(file))));
  }

  static Properties load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      p.load(r);
    }
    return p;
  }

  static Map<String, String> asMap(Properties p) {
    return p.stringPropertyNames().stream().collect(Collectors.toMap(k -> k, p::getProperty));
  }
}
