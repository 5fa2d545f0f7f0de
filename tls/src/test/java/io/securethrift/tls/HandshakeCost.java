package io.securethrift.tls;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * A measuring harness, not a test: new TLS connections per second (connect, full handshake, one 1-byte echo call,
 * close) of libthrift's {@code TSSLTransportFactory} pair beside securethrift's client and server, both pairs in this
 * JVM with the same RSA-2048 certificates from the test CA, in interleaved rounds. Each round is recorded with JFR, and
 * the events per connection are counted: socket reads and writes, file reads, threads started, certificates parsed,
 * chains validated, JSSE handshakes, and the CPU samples by top frame.
 *
 * <p>Run: {@code java -cp <test classpath> io.securethrift.tls.HandshakeCost [jsse|conscrypt] [none|need] [seconds]
 * [rounds] [TLSv1.3|TLSv1.2]}.
 */
public final class HandshakeCost {
  private static final ByteBuffer PING = ByteBuffer.wrap(new byte[] {1});
  private static final char[] PASSWORD = TlsTestConfigs.PASSWORD;
  /** Connections of ours that resumed a session, counted per round as "resumed" in the table. */
  private static final java.util.concurrent.atomic.AtomicLong RESUMED = new java.util.concurrent.atomic.AtomicLong();

  private final TlsEngine engine;
  private final ClientAuth auth;
  private final String protocol;
  private final Path serverStore;
  private final Path clientStore;
  private final Path trustStore;

  private HandshakeCost(TlsEngine engine, ClientAuth auth, String protocol, Path dir) {
    this.engine = engine;
    this.auth = auth;
    this.protocol = protocol;
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    clientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "client");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  /** One way of opening connections, against its own server. */
  private interface Side extends AutoCloseable {
    void connectOnce() throws Exception;

    @Override
    void close() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    TlsEngine engine = TlsEngine.parse("engine", arg(args, 0, "jsse"));
    ClientAuth auth = ClientAuth.valueOf(arg(args, 1, "none").toUpperCase(Locale.ROOT));
    double seconds = Double.parseDouble(arg(args, 2, "3"));
    int rounds = Integer.parseInt(arg(args, 3, "3"));
    String protocol = arg(args, 4, "TLSv1.3");
    Path dir = Files.createTempDirectory("handshake-cost");
    try {
      new HandshakeCost(engine, auth, protocol, dir).run(seconds, rounds);
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }

  private void run(double seconds, int rounds) throws Exception {
    Map<String, Side> sides = new LinkedHashMap<>();
    sides.put("libthrift", libthrift());
    sides.put("ours, new factory per connection", ours(false));
    sides.put("ours, one factory (resumes)", ours(true));
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, Map<String, Double>> counts = new LinkedHashMap<>();
    try {
      for (Side side : sides.values()) {
        measure(side, Math.min(seconds, 2), null); // warm-up
      }
      for (int round = 0; round < rounds; round++) {
        for (Map.Entry<String, Side> side : sides.entrySet()) {
          Map<String, Double> perConnection = new TreeMap<>();
          double rate = measure(side.getValue(), seconds, perConnection);
          rates.computeIfAbsent(side.getKey(), k -> new ArrayList<>()).add(rate);
          if (round == rounds - 1) {
            counts.put(side.getKey(), perConnection);
          }
        }
      }
    } finally {
      for (Side side : sides.values()) {
        side.close();
      }
    }
    System.out.printf("%n%s, client auth %s, %s: new connections/s per round (ratio to libthrift of the median)%n",
        engine, auth, protocol);
    double base = median(rates.get("libthrift"));
    for (Map.Entry<String, List<Double>> r : rates.entrySet()) {
      System.out.printf("  %-36s %s  median %.0f  ratio %.2f%n", r.getKey(), format(r.getValue()), median(r.getValue()),
          median(r.getValue()) / base);
    }
    System.out.println("events per connection (last round):");
    for (Map.Entry<String, Map<String, Double>> c : counts.entrySet()) {
      System.out.println("  " + c.getKey());
      c.getValue().forEach((k, v) -> System.out.printf("    %-60s %.2f%n", k, v));
    }
  }

  private static String format(List<Double> values) {
    List<String> s = new ArrayList<>();
    values.forEach(v -> s.add(String.format("%.0f", v)));
    return String.join(" ", s);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Connections per second for {@code seconds}; with {@code counts}, recorded with JFR and counted per connection. */
  private static double measure(Side side, double seconds, Map<String, Double> counts) throws Exception {
    Recording recording = counts == null ? null : record();
    RESUMED.set(0);
    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long n = 0;
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    while (System.nanoTime() < end) {
      side.connectOnce();
      n++;
    }
    double rate = n / ((System.nanoTime() - start) / 1e9);
    double cpuMillis = (os.getProcessCpuTime() - cpu) / 1e6 / n;
    if (recording != null) {
      recording.stop();
      Path file = Files.createTempFile("handshake-cost", ".jfr");
      try {
        recording.dump(file);
        count(file, n, counts);
        counts.put("resumed (per connection)", (double) RESUMED.get() / n);
        counts.put("process CPU ms (client + server, JFR on)", cpuMillis);
      } finally {
        recording.close();
        Files.delete(file);
      }
    }
    return rate;
  }

  private static Recording record() {
    Recording recording = new Recording();
    for (String event : List.of("jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite")) {
      recording.enable(event).withThreshold(java.time.Duration.ZERO).withStackTrace();
    }
    for (String event : List.of("jdk.ThreadStart", "jdk.X509Certificate", "jdk.X509Validation",
        "jdk.TLSHandshake")) {
      recording.enable(event).withStackTrace();
    }
    recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(10));
    recording.start();
    return recording;
  }

  private static void count(Path file, long connections, Map<String, Double> counts) throws Exception {
    Map<String, Integer> raw = new TreeMap<>();
    int samples = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      String name = event.getEventType().getName();
      if (name.equals("jdk.ExecutionSample")) {
        samples++;
        raw.merge("cpu sample in " + hotspot(event), 1, Integer::sum);
        continue;
      }
      String key = name;
      if (name.equals("jdk.FileRead") || name.equals("jdk.FileWrite")) {
        key += " " + event.getString("path");
      } else if (name.equals("jdk.ThreadStart")) {
        key += " " + event.getThread("thread").getJavaName().replaceAll("[0-9]+", "N");
      }
      raw.merge(key, 1, Integer::sum);
    }
    raw.merge("cpu samples (10 ms)", samples, Integer::sum);
    final int total = samples;
    raw.forEach((k, v) -> {
      if (!k.startsWith("cpu sample in ") || v * 20 >= total) { // only hotspots holding 5 % of the samples
        counts.put(k, k.startsWith("cpu sample in ") ? 100.0 * v / total : (double) v / connections);
      }
    });
    counts.replaceAll((k, v) -> v);
    Map<String, Double> renamed = new TreeMap<>();
    counts.forEach((k, v) -> renamed.put(k.startsWith("cpu sample in ") ? k + " (% of samples)" : k, v));
    counts.clear();
    counts.putAll(renamed);
  }

  /** The first frame outside java.math and the JDK's crypto internals, with the top frame, to group samples by. */
  private static String hotspot(RecordedEvent event) {
    var frames = event.getStackTrace() == null ? List.<RecordedFrame>of() : event.getStackTrace().getFrames();
    if (frames.isEmpty()) {
      return "?";
    }
    String top = frames.get(0).getMethod().getType().getName() + "." + frames.get(0).getMethod().getName();
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      if (type.startsWith("sun.security.ssl.") || type.startsWith("org.conscrypt.")
          || type.startsWith("io.securethrift") || type.startsWith("org.apache.thrift")
          || type.startsWith("sun.security.provider.certpath")
          || type.startsWith("java.security.KeyStore") || type.startsWith("sun.security.pkcs12")) {
        return top + " <- " + type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
      }
    }
    return top;
  }

  private TSSLTransportFactory.TSSLTransportParameters libthriftParameters(Path keyStore, boolean server) {
    TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters(protocol,
        null);
    if (keyStore != null) {
      params.setKeyStore(keyStore.toString(), new String(PASSWORD), null, "PKCS12");
    }
    if (server ? auth == ClientAuth.NEED : true) {
      params.setTrustStore(trustStore.toString(), new String(PASSWORD), null, "PKCS12");
    }
    params.requireClientAuth(auth == ClientAuth.NEED);
    return params;
  }

  private Side libthrift() throws Exception {
    TServerSocket socket = TSSLTransportFactory.getServerSocket(0, 20_000, InetAddress.getLoopbackAddress(),
        libthriftParameters(serverStore, true));
    EchoServer server = EchoServer.start(new TThreadPoolServer.Args(socket).processor(EchoServer.processor())
        .transportFactory(new TFramedTransport.Factory()), EchoServer.portOf(socket));
    TSSLTransportFactory.TSSLTransportParameters client = libthriftParameters(
        auth == ClientAuth.NEED ? clientStore : null, false);
    return new Side() {
      @Override
      public void connectOnce() throws Exception {
        TSocket socket = TSSLTransportFactory.getClientSocket("localhost", server.port(), 20_000, client);
        try (TFramedTransport framed = new TFramedTransport(socket)) {
          EchoServer.client(framed).echo(PING.duplicate());
        }
      }

      @Override
      public void close() throws Exception {
        server.close();
      }
    };
  }

  private Side ours(boolean reuse) throws Exception {
    ServerTransportFactory serverFactory = ServerTransportFactory.create(TlsTestConfigs.tls(engine, serverStore,
        trustStore).clientAuth(auth).build());
    EchoServer server = EchoServer.start(serverFactory);
    io.securethrift.core.SecurityConfig clientConfig = TlsTestConfigs.tls(engine,
        auth == ClientAuth.NEED ? clientStore : null, trustStore).tlsProtocols(List.of(protocol)).build();
    ClientTransportFactory shared = reuse ? ClientTransportFactory.create(clientConfig) : null;
    return new Side() {
      @Override
      public void connectOnce() throws Exception {
        ClientTransportFactory factory = reuse ? shared : ClientTransportFactory.create(clientConfig);
        try (SecuredTransport transport = factory.open("localhost", server.port())) {
          EchoServer.client(transport).echo(PING.duplicate());
          if (transport.peerIdentity().tlsSessionResumed()) {
            RESUMED.incrementAndGet();
          }
        } finally {
          if (!reuse) {
            factory.close();
          }
        }
      }

      @Override
      public void close() throws Exception {
        if (shared != null) {
          shared.close();
        }
        server.close();
        serverFactory.close();
      }
    };
  }
}
