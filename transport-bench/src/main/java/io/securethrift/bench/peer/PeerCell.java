package io.securethrift.bench.peer;

import com.sun.management.OperatingSystemMXBean;
import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import io.securethrift.bench.Payloads;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.harness.BenchMode;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.Security;
import java.util.HashMap;
import java.util.Map;
import org.apache.thrift.transport.TTransport;

/**
 * One cell of peer-bench in its own JVM: the echo server of one library and the client of one (the same or the
 * other), for one mode. Client and server share the JVM, as they share the machine's two cores, so a cell's rate is
 * what both sides' work together allows; the crossed pairings then tell the sides apart. Each cell is a fresh JVM
 * because the JVM-wide choices (Conscrypt first for libthrift's {@code SSLContext}, the Kerberos logins, the JIT's
 * profile) must not leak from one cell into another.
 *
 * <p>It answers the parent's {@link LineRecord} commands: {@code echo} (calls of {@code size} bytes on one open
 * connection for {@code seconds}) and {@code connect} (connect, a 1-byte call, close, for {@code seconds}), each with
 * the operations done, the nanoseconds they took, the CPU time the JVM spent and how long its JIT compiled meanwhile.
 */
public final class PeerCell implements AutoCloseable {
  static final String READY = "READY";
  static final String ECHO = "echo";
  static final String CONNECT = "connect";
  static final String DONE = "done";
  /** Socket and read timeouts on both sides: long enough never to end a call on a loaded machine. */
  static final int TIMEOUT_MS = 60_000;
  /** The largest message either side accepts: room for the largest default payload and its framing. */
  static final int MAX_MESSAGE = 4 << 20;
  private static final OperatingSystemMXBean CPU =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
  private static final ByteBuffer ONE_BYTE = ByteBuffer.wrap(new byte[] {42});

  private final CellServer server;
  private final Dialer dialer;
  private final Map<Integer, ByteBuffer> payloads = new HashMap<>();
  private TTransport open;
  private EchoService.Client client;

  PeerCell(BenchMode mode, Pairing pairing, PeerMaterial material) throws Exception {
    server = pairing.ourServer() ? OurSide.server(mode, material) : LibthriftSide.server(mode, material);
    try {
      dialer = pairing.ourClient() ? OurSide.client(mode, material) : LibthriftSide.client(mode, material);
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  /** Arguments: the mode's label, the pairing's label and the material file the parent wrote. */
  public static void main(String[] args) throws Exception {
    BenchMode mode = PeerModes.MODES.parse("mode", args[0]);
    prepareJvm(mode);
    try (PeerCell cell = new PeerCell(mode, Pairing.of(args[1]), PeerMaterial.read(Path.of(args[2])))) {
      System.out.println(LineRecord.of(READY).encode());
      System.out.flush();
      ChildJvm.serve(cell::handle);
    }
  }

  /**
   * What a cell's JVM must do before its first connection: in the Conscrypt mode install the Conscrypt-first
   * provider, Accumulo's way to Conscrypt (an unmodified {@code TSSLTransportFactory} asks
   * {@code SSLContext.getInstance} and gets Conscrypt).
   */
  static void prepareJvm(BenchMode mode) {
    if (PeerModes.conscrypt(mode) && Security.getProvider(ConscryptFirstProvider.NAME) == null) {
      Security.insertProviderAt(new ConscryptFirstProvider(), 1);
    }
  }

  LineRecord handle(LineRecord command) throws Exception {
    double seconds = command.getDouble("seconds");
    switch (command.kind()) {
      case ECHO:
        return echo(command.getInt("size"), seconds, Boolean.parseBoolean(command.get("reuse")));
      case CONNECT:
        return connect(seconds);
      default:
        throw new IllegalArgumentException("unknown command " + command.kind() + "; expected " + ECHO + " or "
            + CONNECT);
    }
  }

  /**
   * Echo calls of {@code size} bytes for at least {@code seconds}, on a connection opened outside the timed part, or
   * with {@code reuse} the one of the last echo turn. Between a round's metrics a cell can wait while the others run
   * for longer than the servers' read timeout ({@link #TIMEOUT_MS}), so the first turn at a metric opens a new one;
   * the turns after it follow within a second or so.
   */
  LineRecord echo(int size, double seconds, boolean reuse) throws Exception {
    if (!reuse || open == null) {
      if (open != null) {
        open.close();
      }
      open = dialer.open(server.port());
      client = EchoServer.client(open);
    }
    ByteBuffer payload = payloads.computeIfAbsent(size, Payloads::random);
    return repeat(seconds, () -> {
      ByteBuffer back = client.echo(payload.duplicate());
      if (back.remaining() != size) {
        throw new IllegalStateException("echo of " + size + " bytes came back with " + back.remaining());
      }
    });
  }

  /** New connections (connect, handshake, a 1-byte call, close) for at least {@code seconds}. */
  LineRecord connect(double seconds) throws Exception {
    return repeat(seconds, () -> {
      TTransport transport = dialer.open(server.port());
      try {
        if (EchoServer.client(transport).echo(ONE_BYTE.duplicate()).remaining() != 1) {
          throw new IllegalStateException("the 1-byte echo came back with another length");
        }
      } finally {
        transport.close();
      }
    });
  }

  /** One operation of a measurement. */
  @FunctionalInterface
  private interface Operation {
    void run() throws Exception;
  }

  /** Runs {@code operation} again and again for at least {@code seconds} and answers with what it took. */
  private static LineRecord repeat(double seconds, Operation operation) throws Exception {
    long limit = (long) (seconds * 1e9);
    long ops = 0;
    long jit = jitMillis();
    long cpu = CPU.getProcessCpuTime();
    long start = System.nanoTime();
    long elapsed;
    do {
      operation.run();
      ops++;
      elapsed = System.nanoTime() - start;
    } while (elapsed < limit);
    return done(ops, elapsed, cpu, jit);
  }

  /**
   * The answer to a measurement: operations, wall nanoseconds, the CPU nanoseconds this JVM (client and server)
   * spent, which a busy machine inflates far less than the wall time, and the milliseconds its JIT compiled meanwhile,
   * which tell whether the paths measured were still being compiled.
   */
  private static LineRecord done(long ops, long nanos, long cpuBefore, long jitBefore) {
    return LineRecord.of(DONE).with("ops", ops).with("nanos", nanos).with("cpu",
        CPU.getProcessCpuTime() - cpuBefore).with("jit", jitMillis() - jitBefore);
  }

  /** The JIT's compilation time so far in milliseconds; 0 where the JVM does not keep it. */
  private static long jitMillis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
  }

  @Override
  public void close() throws Exception {
    try {
      if (open != null) {
        open.close();
      }
      dialer.close();
    } finally {
      server.close();
    }
  }
}
