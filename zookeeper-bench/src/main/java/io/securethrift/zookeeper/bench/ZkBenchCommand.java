package io.securethrift.zookeeper.bench;

import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.kdc.ca.KeyStoreFormat;
import io.securethrift.kdc.ca.TestCertificateAuthority;
import io.securethrift.zookeeper.LocalEnsemble;
import io.securethrift.zookeeper.ZooKeeperClientSecurity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * zk-bench: ZooKeeper's zk-latencies workload (create, set, get, delete of permanent and ephemeral znodes, and
 * watches) without security, with TLS on JSSE and with TLS on Conscrypt, in one run.
 *
 * <p>The server model is the same in every mode: one ensemble per mode, each server a {@code NettyServerCnxnFactory}
 * in its own JVM (standalone, or three servers with {@code --quorum}, whose quorum traffic is TLS in the TLS modes),
 * and one Netty client per mode in its own JVM. Iterations run round-robin across modes after one warm-up iteration
 * per mode, so drift of the machine spreads evenly. Certificates come from a throw-away CA; nothing is needed
 * beforehand and everything is deleted afterwards.
 */
@Command(name = "zk-bench", mixinStandardHelpOptions = true,
    description = "ZooKeeper latency (zk-latencies workload) with no security, TLS on JSSE and TLS on Conscrypt.")
public final class ZkBenchCommand implements Callable<Integer> {
  private static final Secret PASSWORD = Secret.of("zk-bench");

  @Spec
  private CommandSpec spec;

  @Option(names = "--znodes", description = "znodes per phase, as zk-latencies (default: ${DEFAULT-VALUE})")
  private int znodes = 10_000;

  @Option(names = "--iterations", description = "measured iterations per mode, after one warm-up"
      + " (default: ${DEFAULT-VALUE})")
  private int iterations = 5;

  @Option(names = "--quorum", description = "three-server ensembles, quorum TLS in the TLS modes")
  private boolean quorum;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path dir = Files.createTempDirectory("zk-bench-");
    Map<BenchMode, LocalEnsemble> ensembles = new EnumMap<>(BenchMode.class);
    Map<BenchMode, ChildJvm> clients = new EnumMap<>(BenchMode.class);
    try {
      TestCertificateAuthority ca = TestCertificateAuthority.create();
      char[] pw = PASSWORD.chars();
      Path trust = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, pw);
      Path serverKeys = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, pw);
      Path clientKeys = ca.leaf().commonName("bench-client").issue().writeKeyStore(dir, "client",
          KeyStoreFormat.PKCS12, pw);
      for (BenchMode mode : BenchMode.values()) {
        LocalEnsemble zk = LocalEnsemble.builder().size(quorum ? 3 : 1)
            .security(mode.config(serverKeys, trust, PASSWORD)).clientPort(!mode.tls())
            .secureClientPort(mode.tls()).quorumTls(quorum && mode.tls()).tickTime(2000)
            .jvmOptions(List.of("-Xmx512m", "-Dzookeeper.forceSync=no")).start();
        ensembles.put(mode, zk);
        SecurityConfig client = mode.config(clientKeys, trust, PASSWORD);
        // The probe runs in this JVM, which keeps JSSE: same stores, engine jsse.
        zk.awaitServing(IntStream.rangeClosed(1, quorum ? 3 : 1).boxed().toList(),
            ZooKeeperClientSecurity.clientConfig(mode.tls() ? client.toBuilder().tlsEngine(TlsEngine.JSSE).build()
                : client), Duration.ofSeconds(120));
        Path props = write(client, dir.resolve(mode.label() + "-client.properties"));
        clients.put(mode, ChildJvm.builder(BenchClientMain.class).name(mode.label() + " client")
            .jvmOptions(List.of("-Xmx512m"))
            .args(List.of(props.toString(), zk.connectString(mode.tls()), Integer.toString(znodes)))
            .log(dir.resolve(mode.label() + "-client.log")).talk().start());
      }
      out.printf(Locale.ROOT, "zk-bench: %d znodes of 100 bytes per phase, %d iterations per mode after 1 warm-up,"
          + " %s, Netty client and server in every mode, TLS 1.2 with client certificates%n%n", znodes, iterations,
          quorum ? "3-server ensembles (quorum TLS in TLS modes)" : "standalone servers");
      Map<BenchMode, List<List<Double>>> results = measure(clients);
      out.println(totals(results).render("Iteration time (all " + Workload.PHASES.size() + " phases):"));
      out.println(phaseMedians(results));
      out.flush();
      return 0;
    } finally {
      clients.values().forEach(ChildJvm::close);
      ensembles.values().forEach(LocalEnsemble::close);
      deleteFlat(dir);
    }
  }

  private Map<BenchMode, List<List<Double>>> measure(Map<BenchMode, ChildJvm> clients) throws IOException {
    Map<BenchMode, List<List<Double>>> results = new EnumMap<>(BenchMode.class);
    clients.keySet().forEach(mode -> results.put(mode, new ArrayList<>()));
    for (int i = 0; i <= iterations; i++) {
      for (BenchMode mode : BenchMode.values()) {
        List<Double> phases = Workload.fromRecord(clients.get(mode).call(LineRecord.of(BenchClientMain.RUN)));
        if (i > 0) {
          results.get(mode).add(phases);
        }
      }
    }
    return results;
  }

  private static LatencyTable totals(Map<BenchMode, List<List<Double>>> results) {
    LatencyTable table = new LatencyTable();
    results.forEach((mode, runs) -> table.add(mode.label(),
        runs.stream().map(r -> r.stream().mapToDouble(Double::doubleValue).sum()).toList()));
    return table;
  }

  private static String phaseMedians(Map<BenchMode, List<List<Double>>> results) {
    StringBuilder out = new StringBuilder("Median ms per phase:\n\n| phase |");
    results.keySet().forEach(m -> out.append(' ').append(m.label()).append(" |"));
    out.append("\n|---|").append("---|".repeat(results.size())).append('\n');
    for (int p = 0; p < Workload.PHASES.size(); p++) {
      int phase = p;
      out.append("| ").append(Workload.PHASES.get(p)).append(" |");
      results.values().forEach(runs -> out.append(String.format(Locale.ROOT, " %.1f |",
          LatencyTable.median(runs.stream().mapToDouble(r -> r.get(phase)).toArray()))));
      out.append('\n');
    }
    return out.toString();
  }

  private static Path write(SecurityConfig config, Path file) throws IOException {
    Properties p = new Properties();
    p.putAll(config.toProperties());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.ISO_8859_1)) {
      p.store(w, "zk-bench client");
    }
    return file;
  }

  /** The directory is flat: stores, client properties and client logs (servers clean up their own). */
  private static void deleteFlat(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
