package io.securethrift.core.testservice;

import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TTransport;

/**
 * A real {@link TThreadPoolServer} running {@link EchoHandler} on a free loopback port, for transport tests in every
 * module. {@link #close()} stops it and waits for its serving thread to end.
 */
public final class EchoServer implements AutoCloseable {
  private final TServer server;
  private final Thread thread;
  private final int port;

  private EchoServer(TServer server, int port) {
    this.server = server;
    this.port = port;
    this.thread = new Thread(server::serve, "echo-server-" + port);
    thread.setDaemon(true);
    thread.start();
    // TServer offers no start signal that works on every libthrift version; isServing() is the condition.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!server.isServing()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("echo server did not start serving");
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  /** Serves the echo service through a securethrift server factory. */
  public static EchoServer start(ServerTransportFactory factory) throws Exception {
    TServerSocket socket = factory.listen(new InetSocketAddress("127.0.0.1", 0));
    return start(factory.threadPoolServerArgs(socket, processor()), ServerTransportFactory.port(socket));
  }

  /** Serves the echo service with arguments the caller prepared (for example libthrift's own SSL or SASL factories). */
  public static EchoServer start(TThreadPoolServer.Args args, int port) throws Exception {
    args.protocolFactory(new TCompactProtocol.Factory()).minWorkerThreads(2).maxWorkerThreads(32)
        .stopTimeoutVal(2).stopTimeoutUnit(TimeUnit.SECONDS);
    return new EchoServer(new TThreadPoolServer(args), port);
  }

  public static TProcessor processor() {
    return new EchoService.Processor<>(new EchoHandler());
  }

  /** The local port of a listening transport made by libthrift's own factories. */
  public static int portOf(TServerTransport transport) {
    return ((TServerSocket) transport).getServerSocket().getLocalPort();
  }

  public int port() {
    return port;
  }

  /** Echoes a random payload of each size and checks every byte comes back. */
  public static void assertEchoes(EchoService.Client client, int... sizes) throws TException {
    for (int size : sizes) {
      byte[] payload = new byte[size];
      new Random(size).nextBytes(payload);
      ByteBuffer echoed = client.echo(ByteBuffer.wrap(payload));
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      if (!Arrays.equals(payload, got)) {
        throw new AssertionError("echo of " + size + " bytes came back as " + got.length + " different bytes");
      }
    }
  }

  /** A client of the echo service over an open transport, reading through the bounded protocol when it is secured. */
  public static EchoService.Client client(TTransport transport) {
    if (transport instanceof SecuredTransport) {
      return new EchoService.Client(((SecuredTransport) transport).protocol(new TCompactProtocol.Factory()));
    }
    return new EchoService.Client(new TCompactProtocol(transport));
  }

  @Override
  public void close() throws InterruptedException {
    server.stop();
    thread.join(TimeUnit.SECONDS.toMillis(30));
  }
}
