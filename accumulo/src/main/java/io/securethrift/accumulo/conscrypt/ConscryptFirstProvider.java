package io.securethrift.accumulo.conscrypt;

import io.securethrift.tls.internal.ConscryptProvider;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A JCA provider that makes unmodified code calling {@code SSLContext.getInstance("TLSv1.2")} (Accumulo's
 * {@code TSSLTransportFactory}) or {@code SSLContext.getDefault()} get Conscrypt, while the JDK's own TLS stays
 * available by name ({@code SSLContext.getInstance("TLS", "SunJSSE")}).
 *
 * <p>Installed first in the provider list, it offers <em>only</em> {@code SSLContext} ({@code TLS}, {@code TLSv1.2},
 * {@code TLSv1.3}, {@code Default}) and hands each request to Conscrypt's implementation. Conscrypt's own provider is
 * never installed: placed first it would also answer JSSE's start-up look-ups of EC parameters and key factories and
 * leave JSSE broken ({@code unhandled field class java.security.spec.ECFieldF2m} on JDK 17), and placed last it is
 * never chosen. Conscrypt's native library loads on the first request, not when the JVM reads its provider list.
 *
 * <p>Install it with {@code -Djava.security.properties=<file>}, the file written by
 * {@link io.securethrift.core.DropInSecurityFile} (see {@code docs/accumulo.md}). The first time each protocol is
 * handed out a line on standard error names Conscrypt's version and the requesting class, so operators can see the
 * drop-in is in effect.
 */
public final class ConscryptFirstProvider extends Provider {
  /** The name under which this provider is installed and can be asked for. */
  public static final String NAME = "SecureThriftConscryptFirst";
  private static final long serialVersionUID = 1L;
  private static final List<String> PROTOCOLS = List.of("TLS", "TLSv1.2", "TLSv1.3", "Default");

  /** Public and without arguments, as the JDK requires of providers named in {@code java.security}. */
  public ConscryptFirstProvider() {
    super(NAME, "1.0", "SSLContext from Conscrypt, installed ahead of SunJSSE; everything else left to the JDK");
    for (String protocol : PROTOCOLS) {
      putService(new DelegatingService(this, protocol));
    }
  }

  /** One {@code SSLContext} algorithm, created by Conscrypt's provider. */
  private static final class DelegatingService extends Service {
    DelegatingService(Provider provider, String protocol) {
      super(provider, "SSLContext", protocol, DelegatingService.class.getName(), List.of(), Map.of());
    }

    @Override
    public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
      Service conscrypt = Delegate.PROVIDER.getService(getType(), getAlgorithm());
      if (conscrypt == null) {
        throw new NoSuchAlgorithmException("Conscrypt " + Delegate.version() + " has no SSLContext." + getAlgorithm());
      }
      Object spi = conscrypt.newInstance(constructorParameter);
      Delegate.announce(getAlgorithm());
      return spi;
    }
  }

  /**
   * The JVM's one Conscrypt provider (securethrift-tls's, shared with securethrift's own TLS), taken on first use so
   * that reading the provider list never loads native code. Package-private for the test that checks it is the same.
   */
  static final class Delegate {
    static final Provider PROVIDER = ConscryptProvider.instance();
    private static final Map<String, Boolean> ANNOUNCED = new ConcurrentHashMap<>();
    private static final StackWalker WALKER = StackWalker.getInstance();

    static String version() {
      return ConscryptProvider.version();
    }

    /** Standard error, not a logging framework: this runs inside JCA look-ups, early, in any server process. */
    static void announce(String protocol) {
      if (ANNOUNCED.putIfAbsent(protocol, Boolean.TRUE) == null) {
        System.err.println(NAME + ": SSLContext." + protocol + " is Conscrypt " + version() + " (requested by "
            + caller() + ")");
      }
    }

    /** The first class outside the JDK and this provider, such as Thrift's {@code TSSLTransportFactory}. */
    private static String caller() {
      return WALKER.walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
          .filter(c -> !c.startsWith("java.") && !c.startsWith("javax.") && !c.startsWith("sun.")
              && !c.startsWith("jdk.") && !c.startsWith(ConscryptFirstProvider.class.getName()))
          .findFirst().orElse("unknown"));
    }
  }
}
