package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.server.IngestServer;
import io.securethrift.ingest.server.ServerModel;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import javax.management.JMX;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The benchmark's server JVM: starts an ingest server from a properties file, and with a second properties file a
 * baseline server beside it in the same JVM (see {@link WorkerProtocol#BASELINE}); prints {@code READY port=n
 * baselinePort=m}, answers {@code SAMPLE}, {@code VERIFY}, {@code RESET} and {@code PLAINTEXT} (see
 * {@link WorkerProtocol}), and stops when its standard input closes. Arguments: properties file, server model
 * ({@link ServerModel#token()}), {@link #SECURETHRIFT} or {@link #LIBTHRIFT_SASL} (the secured server's transports),
 * baseline properties file or {@link #NO_BASELINE}, optional write-ahead log file (the secured server's).
 */
final class ServerWorker {
  /** The baseline argument of a worker that runs no baseline. */
  static final String NO_BASELINE = "-";
  /** The transports argument of a server on securethrift's transports. */
  static final String SECURETHRIFT = "securethrift";
  /**
   * The transports argument of a thread-pool server on libthrift's own SASL transports (see
   * {@link IngestServer#startOnLibthriftSasl}).
   */
  static final String LIBTHRIFT_SASL = "libthrift-sasl";

  private ServerWorker() {}

  public static void main(String[] args) throws Exception {
    ServerModel model = ServerModel.parse("server model", args[1]);
    boolean libthrift = args[2].equals(LIBTHRIFT_SASL) && model == ServerModel.THREADPOOL;
    Path wal = args.length > 4 ? Path.of(args[4]) : null;
    InetSocketAddress any = new InetSocketAddress(BenchSecurity.HOST, 0);
    try (IngestServer server = libthrift ? IngestServer.startOnLibthriftSasl(read(args[0]), any)
            : IngestServer.start(read(args[0]), any, wal, model);
        IngestServer baseline = args[3].equals(NO_BASELINE) ? null
            : IngestServer.start(read(args[3]), any, null, model)) {
      System.out.println(LineRecord.of(WorkerProtocol.READY).with("port", server.port())
          .with(WorkerProtocol.BASELINE_PORT, baseline == null ? -1 : baseline.port()).encode());
      System.out.flush();
      ChildJvm.serve(command -> answer(WorkerProtocol.baseline(command) ? baseline : server, command));
    }
    System.exit(0);
  }

  private static SecurityConfig read(String file) throws Exception {
    return SecurityConfigFiles.read(Path.of(file), "worker configuration");
  }

  /**
   * The server's counters and plaintext switch through JMX, under the name {@link ServerCountersMXBean} documents,
   * as an operator's JMX client reaches them (docs/tls.md, port unification).
   */
  private static ServerCountersMXBean jmx(int port) throws MalformedObjectNameException {
    return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
        new ObjectName("io.securethrift:type=Server,port=" + port), ServerCountersMXBean.class);
  }

  private static LineRecord answer(IngestServer server, LineRecord command) throws Exception {
    switch (command.kind()) {
      case WorkerProtocol.SAMPLE:
        return WorkerProtocol.gc();
      case WorkerProtocol.VERIFY:
        return WorkerProtocol.verified(server.verify(), server.received());
      case WorkerProtocol.RESET:
        server.reset();
        // The last iteration's table is garbage now: collected here, outside the measured part, every iteration
        // starts from the same empty heap instead of paying for some of its predecessor's garbage at random.
        System.gc();
        return LineRecord.of(WorkerProtocol.OK);
      case WorkerProtocol.PLAINTEXT: {
        ServerCountersMXBean port = jmx(server.port());
        if (WorkerProtocol.tlsOnly(command)) {
          port.setPlaintextAccepted(false);
        }
        return WorkerProtocol.port(new TlsRollout.Port(port.getPlaintextConnections(),
            port.getHandshakeFailuresByCause().get(AuthFailure.PLAINTEXT.token()), port.isPlaintextAccepted()));
      }
      default:
        throw new IllegalArgumentException("unknown command " + command.kind());
    }
  }
}
