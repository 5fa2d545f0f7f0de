package io.securethrift.bench.server;

import io.securethrift.bench.Payloads;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TMemoryBuffer;

/**
 * Scenario 5: peers that pipeline large calls and never read the replies, as an attacker holds a server's memory.
 * Each of the peers connects with a 4 KiB receive window, writes {@value #CALLS} echo calls of {@value #CALL_BYTES}
 * bytes back to back and reads nothing. The row gives what the server holds once the window has passed (its heap
 * after a full collection plus Netty's pooled direct memory, against the same before the peers came), the peak of its
 * resident memory, how many of the peers it closed, and a reading client's 1 KiB round trips over a window before
 * and over one while the peers press.
 * Only in mode {@code none}: with TLS client certificates or SASL, a peer must authenticate before it can call.
 */
final class StalledReaders {
  static final String SCENARIO = "stall";
  static final int CALLS = 12;
  static final int CALL_BYTES = 1 << 20;
  private static final int RECEIVE_WINDOW = 4096;
  private static final ByteBuffer PAYLOAD = Payloads.random(1024);
  private static final long RSS_SAMPLE_NANOS = 50_000_000;

  private StalledReaders() {}

  static Row measure(ServerUnderTest server, ClientTransportFactory clients, int peers, Duration window)
      throws IOException, TException, InterruptedException {
    byte[] call = call();
    try (SecuredTransport transport = clients.open(BenchMaterial.HOST, server.port())) {
      EchoService.Client reader = EchoServer.client(transport);
      Latencies unloaded = roundTrips(reader, server, window, null);
      long heldBefore = server.memoryHeld();
      long rssBefore = server.status().rssKb();
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < peers; i++) {
          stalled.add(stall(server.port(), call));
        }
        long[] rssPeak = {rssBefore};
        Latencies loaded = roundTrips(reader, server, window, rssPeak);
        long heldAfter = server.memoryHeld();
        long closed = stalled.stream().filter(StalledReaders::closedByServer).count();
        return new Row(SCENARIO, server.mode.name(), server.kind.token(), peers + " peers x " + CALLS + " x "
            + (CALL_BYTES >> 20) + " MiB calls, never reading", new Row.Figures()
                .put("held_mb_before", heldBefore / 1e6)
                .put("held_rise_mb", (heldAfter - heldBefore) / 1e6)
                .put("rss_peak_rise_mb", (rssPeak[0] - rssBefore) / 1e3)
                .put("peers_closed", closed)
                .put("unloaded_p50_ms", unloaded.percentileMs(50))
                .put("p50_ms", loaded.percentileMs(50))
                .put("p99_ms", loaded.percentileMs(99))
                .put("calls_during", loaded.count()).map());
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
    }
  }

  /** One framed echo call of {@link #CALL_BYTES}, as the peers send it. */
  static byte[] call() throws TException {
    TMemoryBuffer message = new TMemoryBuffer(CALL_BYTES + 64);
    new EchoService.Client(new TCompactProtocol(message)).send_echo(ByteBuffer.allocate(CALL_BYTES));
    return ByteBuffer.allocate(4 + message.length()).putInt(message.length())
        .put(message.getArray(), 0, message.length()).array();
  }

  /** A peer that writes its calls on a thread of its own (the writes block once the server stops reading). */
  static Socket stall(int port, byte[] call) throws IOException {
    Socket socket = new Socket();
    socket.setReceiveBufferSize(RECEIVE_WINDOW);
    socket.connect(new InetSocketAddress(BenchMaterial.HOST, port));
    Thread writer = new Thread(() -> {
      try {
        for (int i = 0; i < CALLS; i++) {
          socket.getOutputStream().write(call);
        }
      } catch (IOException closedByTheServer) {
        // What a bounded server does to some of them.
      }
    }, "stalled-peer");
    writer.setDaemon(true);
    writer.start();
    return socket;
  }

  /** The reading client's round trips over {@code window}, sampling the server's resident memory if asked. */
  private static Latencies roundTrips(EchoService.Client reader, ServerUnderTest server, Duration window,
      long[] rssPeak) throws TException {
    Latencies latencies = new Latencies();
    long end = System.nanoTime() + window.toNanos();
    long nextSample = 0;
    while (System.nanoTime() < end) {
      long start = System.nanoTime();
      reader.echo(PAYLOAD.duplicate());
      latencies.add(System.nanoTime() - start);
      // Every 50 ms, not every call: reading /proc between calls would slow the loaded window's calls alone.
      if (rssPeak != null && start >= nextSample) {
        rssPeak[0] = Math.max(rssPeak[0], server.status().rssKb());
        nextSample = start + RSS_SAMPLE_NANOS;
      }
    }
    return latencies;
  }

  /** Whether the server has closed the peer: a reset, or the end of the stream, on a read that does not wait. */
  static boolean closedByServer(Socket socket) {
    try {
      socket.setSoTimeout(1);
      byte[] sink = new byte[1 << 16];
      while (socket.getInputStream().read(sink) >= 0) {
        // Parts of replies written before the close come first.
      }
      return true;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }
}
