package io.securethrift.tls;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Comparator;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;
import org.apache.thrift.transport.TSSLTransportFactory;

/**
 * A measuring harness, not a test: the CPU time (of this thread, so a busy machine disturbs it less than wall time)
 * of what a connection costs before its first byte when nothing is reused: securethrift's client factory with a key
 * and a trust store, beside the context libthrift's {@code TSSLTransportFactory} builds for each client socket; and
 * per full handshake on the side presenting a certificate, fetching the key from the key manager (the JDK's PKIX one
 * over the PKCS#12 file, as contexts had it before, and {@link SingleKeyManager}). Run it against an older build of
 * the TLS module's classes to see the factory's cost before.
 *
 * <p>Run: {@code java -cp <test classpath> io.securethrift.tls.FactoryCost [jsse|conscrypt] [count] [factory]}; with
 * {@code factory}, only the factory and libthrift's context are measured.
 */
public final class FactoryCost {
  private FactoryCost() {}

  /** One measured operation. */
  private interface Operation {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    TlsEngine engine = TlsEngine.parse("engine", args.length > 0 ? args[0] : "jsse");
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    Path dir = Files.createTempDirectory("factory-cost");
    try {
      TestCertificateAuthority ca = TestCertificateAuthority.create();
      Path keyStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "client");
      Path trustStore = TlsTestConfigs.trustStore(ca, dir);
      SecurityConfig config = TlsTestConfigs.tls(engine, keyStore, trustStore).build();
      TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters();
      params.setKeyStore(keyStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
      params.setTrustStore(trustStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
      Method libthrift = TSSLTransportFactory.class.getDeclaredMethod("createSSLContext",
          TSSLTransportFactory.TSSLTransportParameters.class);
      libthrift.setAccessible(true);
      for (int round = 0; round < 3; round++) {
        System.out.printf(Locale.ROOT, "round %d: libthrift context %.2f ms, securethrift client factory %.2f ms%n",
            round, cpuMillis(count, () -> libthrift.invoke(null, params)),
            cpuMillis(count, () -> ClientTransportFactory.create(config).close()));
      }
      if (args.length > 2 && args[2].equals("factory")) {
        return; // an older build of the TLS module, without SingleKeyManager
      }
      X509KeyManager pkix = pkix(keyStore);
      X509KeyManager single = StoreLoader.keyManager(config.tls().keyStore().orElseThrow());
      for (int round = 0; round < 3; round++) {
        System.out.printf(Locale.ROOT, "round %d: the key for one handshake: JDK PKIX key manager %.3f ms,"
            + " SingleKeyManager %.3f ms%n", round,
            cpuMillis(count, () -> pkix.getPrivateKey(pkix.chooseClientAlias(new String[] {"RSA"}, null, null))),
            cpuMillis(count, () -> single.getPrivateKey(single.chooseClientAlias(new String[] {"RSA"}, null, null))));
      }
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The JDK's PKIX key manager over the PKCS#12 file, as contexts had it before {@link SingleKeyManager}. */
  private static X509KeyManager pkix(Path keyStore) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(keyStore)) {
      store.load(in, TlsTestConfigs.PASSWORD);
    }
    KeyManagerFactory factory = KeyManagerFactory.getInstance("PKIX");
    factory.init(store, TlsTestConfigs.PASSWORD);
    return (X509KeyManager) factory.getKeyManagers()[0];
  }

  private static double cpuMillis(int count, Operation operation) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < count; i++) {
      operation.run();
    }
    return (threads.getCurrentThreadCpuTime() - start) / 1e6 / count;
  }
}
