package io.securethrift.zookeeper;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.TlsSettings;
import io.securethrift.tls.internal.ConscryptProvider;
import java.security.NoSuchAlgorithmException;
import java.security.Security;
import javax.net.ssl.SSLContext;
import org.conscrypt.Conscrypt;

/**
 * Makes Conscrypt the provider of {@code SSLContext.getInstance("TLS")} for the whole JVM, which is the only way to
 * put Conscrypt under ZooKeeper 3.9's client-port TLS.
 *
 * <p>Why JVM-wide: ZooKeeper's Netty client and Netty server build their {@code SslContext} through Netty's
 * {@code SslProvider.JDK}, which asks the JVM for its preferred {@code "TLS"} context and ignores
 * {@code zookeeper.ssl.context.supplier.class} (that setting reaches only the blocking sockets of quorum TLS and
 * four-letter words; see {@link ConscryptSslContextSupplier}). Conscrypt is appended after every JDK provider and
 * preferred for the {@code SSLContext.TLS} service alone, through the JDK's {@code jdk.security.provider.preferred}
 * property, so key factories, signatures and the JDK's own TLS stay where they were (inserting Conscrypt first
 * breaks JSSE's initialisation). The JDK reads that property once, when it first builds its provider list, so this
 * must run first thing in {@code main}, in a process meant to use Conscrypt for all its ZooKeeper TLS; it cannot be
 * undone.
 *
 * <p>Under this arrangement ZooKeeper still checks certificates with the JDK's PKIX trust manager, which rejects
 * the authentication type Conscrypt reports for TLS 1.3 ({@code GENERIC}); client-port TLS on Conscrypt is therefore
 * TLS 1.2 only, which {@link #requireTls12Only} enforces with a clear error instead of a failed handshake.
 */
public final class ConscryptDefaultTls {
  static final String PROVIDER_NAME = "Conscrypt";
  private static final String PREFERRED = "jdk.security.provider.preferred";
  private static boolean installed;

  private ConscryptDefaultTls() {}

  /**
   * Installs Conscrypt as the JVM's TLS provider; calling it again does nothing.
   *
   * @throws IllegalStateException if the JVM built its provider list before this call (something used a security
   *     provider first), so the preference cannot take effect
   * @throws UnsatisfiedLinkError if Conscrypt's native library does not load on this platform
   */
  public static synchronized void install() {
    if (installed) {
      return;
    }
    // Set before anything below can make the JDK build its provider list, which is when the property is read.
    String previous = Security.getProperty(PREFERRED);
    String ours = "SSLContext.TLS:" + PROVIDER_NAME;
    Security.setProperty(PREFERRED, previous == null || previous.isBlank() ? ours : ours + "," + previous);
    Conscrypt.checkAvailability();
    if (Security.getProvider(PROVIDER_NAME) == null) {
      Security.addProvider(ConscryptProvider.instance());
    }
    if (!isInstalled()) {
      throw new IllegalStateException("the JVM read " + PREFERRED + " before ConscryptDefaultTls.install() ran;"
          + " call it first thing in main, before any TLS or security provider is used");
    }
    installed = true;
  }

  /** Whether the configuration runs on Conscrypt: its engine's JCA provider is the JVM's one Conscrypt provider. */
  static boolean chosen(TlsSettings tls) {
    return tls.engineProvider().provider().filter(ConscryptProvider::is).isPresent();
  }

  /**
   * Rejects TLSv1.3 for a ZooKeeper client port on Conscrypt.
   *
   * @throws ConfigException naming {@code securethrift.tls.protocols} when TLSv1.3 is enabled
   */
  static void requireTls12Only(TlsSettings tls) {
    if (tls.protocols().contains("TLSv1.3")) {
      throw new ConfigException(ConfigProperty.TLS_PROTOCOLS.key(), "TLSv1.3 with engine conscrypt on a ZooKeeper"
          + " client port: ZooKeeper's JDK trust manager rejects Conscrypt's TLS 1.3 handshakes (auth type GENERIC);"
          + " use TLSv1.2, or engine jsse");
    }
  }

  /** Whether {@code SSLContext.getInstance("TLS")} returns Conscrypt in this JVM. */
  public static boolean isInstalled() {
    try {
      return PROVIDER_NAME.equals(SSLContext.getInstance("TLS").getProvider().getName());
    } catch (NoSuchAlgorithmException e) {
      return false;
    }
  }
}
