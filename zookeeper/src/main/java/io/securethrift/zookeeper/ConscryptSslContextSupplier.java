package io.securethrift.zookeeper;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.tls.StandardSslContextFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * A {@code zookeeper.ssl.context.supplier.class} that gives ZooKeeper a
 * Conscrypt {@link SSLContext} built by securethrift's TLS module.
 *
 * <p>ZooKeeper instantiates the class by name with its no-argument constructor, so the configuration has to be
 * found without arguments: the supplier reads the securethrift properties file named by the system property
 * {@value #CONFIG_PROPERTY}. A server gets that property from its zoo.cfg key
 * {@link ZooKeeperServerConfig#SECURITY_FILE_KEY} (ZooKeeper turns unknown zoo.cfg keys into {@code zookeeper.*}
 * system properties), so nothing is passed on the command line. A file, rather than a static registry, because the
 * supplier runs in the ZooKeeper server's JVM, which a caller configures through files anyway, and because the file
 * is read at each call, so re-created contexts see new settings. The engine setting in the file is overridden:
 * naming this class is the choice of Conscrypt.
 *
 * <p>In ZooKeeper 3.9.5 only the blocking-socket TLS paths call a supplier: quorum connections and four-letter-word
 * clients. The Netty client and the Netty client port ignore it (see {@link ConscryptDefaultTls}), and the quorum
 * listener needs {@code SSLSocketFactory.createSocket(Socket, InputStream, boolean)}, which Conscrypt does not
 * implement, so {@link ZooKeeperServerConfig} keeps quorum TLS on JSSE. That leaves four-letter words
 * ({@code FourLetterWordMain} with {@code zookeeper.ssl.context.supplier.class}) and outgoing quorum connections.
 */
public final class ConscryptSslContextSupplier implements Supplier<SSLContext> {
  /** The system property naming the securethrift properties file. */
  public static final String CONFIG_PROPERTY = "zookeeper." + ZooKeeperServerConfig.SECURITY_FILE_KEY;

  /** For ZooKeeper, which creates the supplier by reflection. */
  public ConscryptSslContextSupplier() {}

  /**
   * Builds the context from the file the system property names.
   *
   * @throws IllegalStateException if the property is unset; {@link io.securethrift.core.ConfigException} if the file
   *     holds an invalid setting
   */
  @Override
  public SSLContext get() {
    String file = System.getProperty(CONFIG_PROPERTY);
    if (file == null || file.isBlank()) {
      throw new IllegalStateException(CONFIG_PROPERTY + " is not set; put " + ZooKeeperServerConfig.SECURITY_FILE_KEY
          + "=<securethrift properties file> in zoo.cfg or pass -D" + CONFIG_PROPERTY + "=<file>");
    }
    try {
      SecurityConfig config = SecurityConfig.fromProperties(
          SecureZooKeeperServerMain.asMap(SecureZooKeeperServerMain.load(Path.of(file))));
      TlsSettings conscrypt = config.toBuilder().tlsEngine(TlsEngine.CONSCRYPT).build().tls();
      // Quorum peers dial and accept with the same context, so it is built as a server's: the key store is required.
      // A properties file cannot name a context factory, so it is always the standard one.
      return StandardSslContextFactory.INSTANCE.createContext(conscrypt, Role.SERVER);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the TLS material named in " + file, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("unusable TLS material named in " + file + ": " + e.getMessage(), e);
    }
  }
}
