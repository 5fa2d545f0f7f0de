package io.securethrift.accumulo;

import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Runs in a fresh JVM started with the drop-in's {@code -Djava.security.properties}, so that JSSE initialises with
 * the provider already first (the case that breaks when Conscrypt itself is first). Prints {@code key=value} lines:
 * who answers each {@code SSLContext} request, handshakes between Conscrypt and JSSE in both directions, and whether
 * each engine accepts {@link DropIn#CONSCRYPT_ONLY_SUITE}; and which providers answer for SASL mechanisms. Arguments:
 * key store, its password, trust store, its password.
 */
public final class DropInProbe {
  private DropInProbe() {}

  public static void main(String[] args) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(load(Path.of(args[0]), args[1]), args[1].toCharArray());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(load(Path.of(args[2]), args[3]));
    print("first.provider", Security.getProviders()[0].getName());
    print("second.provider", Security.getProviders()[1].getName());
    for (String mechanism : new String[] {"GSSAPI", "PLAIN", "CRAM-MD5", "EXTERNAL"}) {
      Provider[] offering = Security.getProviders("SaslClientFactory." + mechanism);
      print("sasl." + mechanism + ".provider", offering == null ? "none" : offering[0].getName());
    }
    print("sasl.privacy", String.valueOf(Security.getProperty("securethrift.sasl.privacy")));
    print("tlsv12.provider", SSLContext.getInstance("TLSv1.2").getProvider().getName());
    print("default.provider", SSLContext.getDefault().getProvider().getName());
    SSLContext conscryptServer = SSLContext.getInstance("TLSv1.2");
    conscryptServer.init(keys.getKeyManagers(), null, null);
    SSLContext jsseServer = SSLContext.getInstance("TLS", "SunJSSE");
    jsseServer.init(keys.getKeyManagers(), null, null);
    // TLSv1.2, as Accumulo's clients ask for: Conscrypt's TLS 1.3 clients report the key exchange as GENERIC, which
    // the JDK's trust managers reject.
    SSLContext conscryptClient = SSLContext.getInstance("TLSv1.2");
    conscryptClient.init(null, trust.getTrustManagers(), null);
    SSLContext jsseClient = SSLContext.getInstance("TLS", "SunJSSE");
    jsseClient.init(null, trust.getTrustManagers(), null);
    print("conscrypt.server.jsse.client", handshake(conscryptServer, jsseClient));
    print("jsse.server.conscrypt.client", handshake(jsseServer, conscryptClient));
    print("conscrypt.accepts.suite", accepts(conscryptServer));
    print("jsse.accepts.suite", accepts(jsseServer));
  }

  private static KeyStore load(Path file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("JKS");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }

  /** One handshake over loopback; the server socket's class and the negotiated protocol. */
  private static String handshake(SSLContext server, SSLContext client) throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0, 1,
        loopback)) {
      CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) listener.accept()) {
          accepted.startHandshake();
          accepted.getOutputStream().write(1);
          accepted.getOutputStream().flush();
          accepted.getInputStream().read();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(loopback, listener.getLocalPort())) {
        socket.startHandshake();
        int read = socket.getInputStream().read();
        String protocol = socket.getSession().getProtocol();
        socket.getOutputStream().write(read);
        socket.getOutputStream().flush();
        served.get(30, TimeUnit.SECONDS);
        return listener.getClass().getName() + " " + protocol;
      }
    }
  }

  private static boolean accepts(SSLContext context) throws Exception {
    try (SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory().createServerSocket()) {
      socket.setEnabledCipherSuites(new String[] {DropIn.CONSCRYPT_ONLY_SUITE});
      return true;
    } catch (IllegalArgumentException unsupported) {
      return false;
    }
  }

  private static void print(String key, Object value) {
    System.out.println(key + "=" + value);
  }
}
