package io.securethrift.sasl;

import java.security.Provider;
import java.security.Security;

/**
 * A security provider offering securethrift's GSSAPI SASL mechanism to every caller in the JVM: libthrift's
 * {@code TSaslClientTransport} and {@code TSaslServerTransport} (so unmodified Accumulo), Hadoop RPC, HBase and
 * ZooKeeper find mechanisms with {@code Sasl.createSaslClient}/{@code createSaslServer}, which ask the providers in
 * order. Placed first, it answers for GSSAPI; every other mechanism (DIGEST-MD5, PLAIN, CRAM-MD5, EXTERNAL, Hadoop's
 * own) is still found in the providers after it.
 *
 * <p>Its mechanism is the JDK's on the wire with every standard peer. Between two ends that both have it, at
 * {@code auth-conf}, it negotiates AES-GCM privacy inside the Kerberos exchange (docs/sasl-privacy.md), and
 * {@code Sasl.QOP} still reports {@code auth-conf}. It also runs on Java runtimes without the JDK's GSSAPI SASL
 * mechanism (module {@code jdk.security.jgss}), needing only {@code java.security.jgss}.
 *
 * <p>Install it with a security properties file ({@code -Djava.security.properties=...}) written by
 * {@link io.securethrift.core.DropInSecurityFile} (see docs/accumulo.md), or in code with {@link #install()}. The
 * security property {@code securethrift.sasl.privacy} ({@code aes-gcm-preferred} by default, {@code aes-gcm} or
 * {@code gss}) sets its privacy for callers that pass no such SASL property.
 */
public final class SecureThriftSaslProvider extends Provider {
  /** The provider's name, as {@code Security.getProvider} takes it. */
  public static final String NAME = "SecureThriftSasl";
  private static final long serialVersionUID = 1L;

  /** A provider offering {@code SaslClientFactory.GSSAPI} and {@code SaslServerFactory.GSSAPI}. */
  public SecureThriftSaslProvider() {
    super(NAME, "1.0", "securethrift's GSSAPI SASL mechanism (RFC 4752), with AES-GCM privacy between securethrift"
        + " peers");
    putService(new FactoryService(this, "SaslClientFactory"));
    putService(new FactoryService(this, "SaslServerFactory"));
  }

  /**
   * Places the provider first in this JVM's list unless it is there already. Code that enumerates factories with
   * {@code Sasl.getSaslServerFactories()} (Hadoop RPC) gets them in no particular order: where it must get this one,
   * also remove the JDK's GSSAPI provider, {@code Security.removeProvider("JdkSASL")}, as the security file does.
   *
   * @return whether this call installed it
   */
  public static synchronized boolean install() {
    if (Security.getProvider(NAME) != null) {
      return false;
    }
    Security.insertProviderAt(new SecureThriftSaslProvider(), 1);
    return true;
  }

  /**
   * How many negotiations securethrift's GSSAPI clients and servers in this JVM have completed at {@code level}
   * (each end of a connection counts once): {@code auth}, {@code auth-int}, {@code auth-conf/gss} or
   * {@code auth-conf/aes-gcm}. A way to see what the provider gives code that only reaches it through {@code Sasl}.
   */
  public static long negotiations(String level) {
    return GssapiMechanism.negotiations(level);
  }

  /** Hands out the one factory instead of creating one by reflection, which a package-private class would refuse. */
  private static final class FactoryService extends Service {
    FactoryService(Provider provider, String type) {
      super(provider, type, GssapiMechanism.NAME, GssapiFactory.class.getName(), null, null);
    }

    @Override
    public Object newInstance(Object constructorParameter) {
      return GssapiFactory.INSTANCE;
    }
  }
}
