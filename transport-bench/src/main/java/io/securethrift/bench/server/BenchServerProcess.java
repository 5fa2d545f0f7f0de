package io.securethrift.bench.server;

import io.netty.buffer.PooledByteBufAllocator;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.netty.NettyThriftServer;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;

/**
 * The server JVM of server-bench: serves the echo service on one server model in one mode on a free loopback port,
 * prints {@code READY port=n threads=t} (t: this JVM's threads before the server started), then answers {@code HEAP}
 * with the heap in use after a full collection and the direct memory Netty's pool holds, until its standard input
 * closes.
 *
 * <p>Arguments: material directory, mode, TLS engine, server kind, and {@value #MUTUAL} to require client
 * certificates in TLS.
 */
final class BenchServerProcess {
  static final String READY = "READY";
  static final String HEAP = "HEAP";
  static final String MUTUAL = "mutual";

  private BenchServerProcess() {}

  public static void main(String[] args) throws Exception {
    BenchMaterial material = BenchMaterial.load(Path.of(args[0]));
    SecurityConfig config = material.server(ServerModes.MODES.parse("mode", args[1]), TlsEngine.parse("engine",
        args[2]), args.length > 4 && args[4].equals(MUTUAL));
    ServerKind kind = ServerKind.parse(args[3]);
    long threadsBefore = ProcStatus.of(ProcessHandle.current().pid()).threads();
    AutoCloseable server;
    int port;
    if (kind.nonblocking()) {
      NettyThriftServer netty = NettyThriftServer.builder(config, EchoServer.processor())
          .protocolFactory(new TCompactProtocol.Factory())
          .callsOnEventLoop(kind == ServerKind.NONBLOCKING_INLINE).build()
          .start(new InetSocketAddress("127.0.0.1", 0));
      server = netty;
      port = netty.port();
    } else {
      ServerTransportFactory factory = ServerTransportFactory.create(config);
      TServerSocket socket = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      TThreadPoolServer pool = new TThreadPoolServer(factory.threadPoolServerArgs(socket, EchoServer.processor())
          .protocolFactory(new TCompactProtocol.Factory()).minWorkerThreads(2).maxWorkerThreads(kind.maxWorkers())
          .stopTimeoutVal(1).stopTimeoutUnit(TimeUnit.SECONDS));
      Thread serving = new Thread(pool::serve, "bench-threadpool-server");
      serving.setDaemon(true);
      serving.start();
      server = () -> {
        pool.stop();
        factory.close();
      };
      port = ServerTransportFactory.port(socket);
    }
    System.out.println(LineRecord.of(READY).with("port", port).with("threads", threadsBefore).encode());
    System.out.flush();
    ChildJvm.serve(command -> {
      if (!command.kind().equals(HEAP)) {
        throw new IllegalArgumentException("unknown command " + command.kind());
      }
      System.gc();
      return LineRecord.of("HEAP").with("bytes", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed())
          .with("direct", PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
    });
    // The benchmark closed our input: it is done with this server. Thread-pool workers may still block in reads.
    server.close();
    System.exit(0);
  }
}
