package io.securethrift.netty;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import org.apache.thrift.protocol.TCompactProtocol;

/**
 * A measuring harness, not a test: the non-blocking server's event-loop CPU per full TLS handshake, in batches from a
 * cold JVM on, so a cost that falls with the batches (an unwarmed JIT) is told apart from one that stays (work done
 * again for every handshake). Each connection comes from a new client factory, so none resumes.
 *
 * <p>Run: {@code java -cp <test classpath> io.securethrift.netty.NettyHandshakeCpu [jsse|conscrypt] [batches]}.
 */
public final class NettyHandshakeCpu {
  private static final char[] PASSWORD = "changeit".toCharArray();

  private NettyHandshakeCpu() {}

  public static void main(String[] args) throws Exception {
    TlsEngine engine = TlsEngine.parse("engine", args.length > 0 ? args[0] : "jsse");
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    Path dir = Files.createTempDirectory("netty-handshake-cpu");
    try {
      TestCertificateAuthority ca = TestCertificateAuthority.create();
      Path serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
      Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
      SecurityConfig server = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
          .keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NONE).build();
      SecurityConfig client = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
          .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
      try (NettyThriftServer netty = NettyThriftServer.builder(server, new EchoService.Processor<>(new EchoHandler()))
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(1)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0))) {
        int done = 0;
        for (int batch = 0, size = 10; batch < batches; batch++, size *= 2) {
          long cpu = eventLoopCpu();
          for (int i = 0; i < size; i++) {
            try (ClientTransportFactory clients = ClientTransportFactory.create(client);
                SecuredTransport transport = clients.open("localhost", netty.port())) {
              new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()))
                  .echo(ByteBuffer.wrap(new byte[] {1}));
            }
          }
          System.out.printf(Locale.ROOT, "%s handshakes %d-%d: event-loop CPU %.2f ms per handshake%n", engine,
              done + 1, done + size, (eventLoopCpu() - cpu) / 1e6 / size);
          done += size;
        }
      }
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** CPU nanoseconds of the server's event-loop threads so far. */
  private static long eventLoopCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
      if (info.getThreadName().startsWith("securethrift-io-")) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }
}
