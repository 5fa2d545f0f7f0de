package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoFailure;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.netty.TlsEchoServer.Stores;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMX;
import javax.management.ObjectName;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TServerSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rolling enablement of mutual TLS, end to end: a cluster of two servers (a thread-pool one and a non-blocking one)
 * and two clients writing all along, each write retried until acknowledged, goes from plaintext to mutual TLS one
 * process at a time. Each server restarts on its port as a unified port with client certificates required; each
 * client restarts as a mutual-TLS client; then both servers turn TLS-only through JMX, without a restart. Every write
 * a client saw acknowledged is in the servers' store at the end, and plaintext is refused.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class RollingEnablementTest {
  private static final Duration WAIT = Duration.ofSeconds(120);
  /** Acknowledged writes each client makes at every step before the next process moves. */
  private static final int WRITES_PER_STEP = 200;

  private static Stores stores;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    stores = Stores.write(ca, dir);
  }

  @EachTlsEngine
  void plaintextToMutualTlsOneProcessAtATimeLosesNothing(TlsEngine engine) throws Exception {
    SecurityConfig plaintext = SecurityConfig.builder().build();
    SecurityConfig unifiedServer = stores.mutual(engine, true).portUnification(true).build();
    SecurityConfig tlsClient = stores.mutual(engine, false).build();
    Set<Long> stored = ConcurrentHashMap.newKeySet();
    List<Writer> writers = new ArrayList<>();
    try (Node threadPool = Node.threadPool(plaintext, 0, stored);
        Node netty = Node.netty(plaintext, 0, stored);
        ClientTransportFactory plainClients = ClientTransportFactory.create(plaintext);
        ClientTransportFactory tlsClients = ClientTransportFactory.create(tlsClient)) {
      Node[] nodes = {threadPool, netty};
      for (int id = 1; id <= 2; id++) {
        writers.add(Writer.start(id, plainClients, nodes));
      }
      try {
        progress(writers);
        for (int i = 0; i < nodes.length; i++) {
          nodes[i].restart(unifiedServer);
          progress(writers);
        }
        for (Writer writer : writers) {
          writer.restart(tlsClients);
          progress(writers);
        }
        for (Node node : nodes) {
          node.jmx().setPlaintextAccepted(false);
        }
        long[] plaintextBefore = {nodes[0].counters().plaintext(), nodes[1].counters().plaintext()};
        progress(writers);
        for (int i = 0; i < nodes.length; i++) {
          Node node = nodes[i];
          assertEquals(plaintextBefore[i], node.counters().plaintext(), "no plaintext after the switch");
          assertThrows(TException.class, () -> {
            try (SecuredTransport plain = plainClients.open("localhost", node.port())) {
              EchoServer.assertEchoes(EchoServer.client(plain), 8);
            }
          });
          Await.until("the plaintext client refused", WAIT,
              () -> node.counters().failures(AuthFailure.PLAINTEXT) == 1);
          try (SecuredTransport tls = tlsClients.open("localhost", node.port())) {
            String who = EchoServer.client(tls).whoAmI();
            assertTrue(who.startsWith("PeerIdentity[tls ") && who.contains("principal=bob"), who);
          }
        }
      } finally {
        for (Writer writer : writers) {
          writer.stop();
        }
      }
      for (Writer writer : writers) {
        assertTrue(writer.acknowledged.size() >= 6 * WRITES_PER_STEP, writer + " wrote too little");
        List<Long> lost = new ArrayList<>(writer.acknowledged);
        lost.removeAll(stored);
        assertEquals(List.of(), lost, writer + ": acknowledged writes not stored");
        System.out.println(writer);
      }
    }
  }

  /** Waits until every writer has had {@link #WRITES_PER_STEP} more writes acknowledged. */
  private static void progress(List<Writer> writers) {
    long[] targets = writers.stream().mapToLong(w -> w.acknowledged.size() + WRITES_PER_STEP).toArray();
    for (int i = 0; i < targets.length; i++) {
      Writer writer = writers.get(i);
      long target = targets[i];
      Await.until(writer + " to reach " + target + " acknowledged writes", WAIT,
          () -> writer.acknowledged.size() >= target);
    }
  }

  /** The service of the cluster: stores every payload it is sent (a store that outlives restarts), echoes it. */
  private static final class StoringEcho implements EchoService.Iface {
    private final EchoHandler echo = new EchoHandler();
    private final Set<Long> stored;

    StoringEcho(Set<Long> stored) {
      this.stored = stored;
    }

    @Override
    public ByteBuffer echo(ByteBuffer payload) {
      stored.add(payload.duplicate().getLong());
      return echo.echo(payload);
    }

    @Override
    public String whoAmI() {
      return echo.whoAmI();
    }

    @Override
    public void fail(String message) throws EchoFailure {
      echo.fail(message);
    }
  }

  /** One server process of the cluster, restarted on its port with another configuration. */
  private static final class Node implements AutoCloseable {
    private final boolean netty;
    private final Set<Long> stored;
    private int port;
    private AuthCounters counters;
    private AutoCloseable running;

    private Node(boolean netty, Set<Long> stored) {
      this.netty = netty;
      this.stored = stored;
    }

    static Node threadPool(SecurityConfig config, int port, Set<Long> stored) throws Exception {
      Node node = new Node(false, stored);
      node.start(config, port);
      return node;
    }

    static Node netty(SecurityConfig config, int port, Set<Long> stored) throws Exception {
      Node node = new Node(true, stored);
      node.start(config, port);
      return node;
    }

    private void start(SecurityConfig config, int bind) throws Exception {
      EchoService.Processor<StoringEcho> processor = new EchoService.Processor<>(new StoringEcho(stored));
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", bind);
      if (netty) {
        NettyThriftServer server = NettyThriftServer.builder(config, processor)
            .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
            .shutdownGrace(Duration.ofSeconds(2)).build().start(address);
        port = server.port();
        counters = server.counters();
        running = server;
      } else {
        ServerTransportFactory factory = ServerTransportFactory.create(config);
        TServerSocket socket = factory.listen(address);
        port = ServerTransportFactory.port(socket);
        EchoServer server = EchoServer.start(factory.threadPoolServerArgs(socket, processor), port);
        counters = factory.counters();
        running = () -> {
          server.close();
          factory.close();
        };
      }
    }

    /** Stops the server, as an operator's rolling restart does, and starts it on the same port with {@code config}. */
    void restart(SecurityConfig config) throws Exception {
      running.close();
      start(config, port);
    }

    int port() {
      return port;
    }

    AuthCounters counters() {
      return counters;
    }

    ServerCountersMXBean jmx() throws Exception {
      return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
          new ObjectName("io.securethrift:type=Server,port=" + port), ServerCountersMXBean.class);
    }

    @Override
    public void close() throws Exception {
      running.close();
    }
  }

  /**
   * A client process writing numbered entries to every node in turn, each one retried on a new connection until it
   * is acknowledged; {@link #restart} makes it a client of another configuration, as a restarted process would be.
   */
  private static final class Writer implements Runnable {
    private final int id;
    private final Node[] nodes;
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicLong retries = new AtomicLong();
    private final Thread thread;
    private volatile ClientTransportFactory clients;
    private volatile boolean stopped;

    private Writer(int id, ClientTransportFactory clients, Node[] nodes) {
      this.id = id;
      this.clients = clients;
      this.nodes = nodes;
      this.thread = new Thread(this, "rolling-writer-" + id);
      thread.setDaemon(true);
    }

    static Writer start(int id, ClientTransportFactory clients, Node[] nodes) {
      Writer writer = new Writer(id, clients, nodes);
      writer.thread.start();
      return writer;
    }

    void restart(ClientTransportFactory next) {
      clients = next;
    }

    void stop() throws InterruptedException {
      stopped = true;
      thread.join(WAIT.toMillis());
    }

    @Override
    public void run() {
      SecuredTransport[] open = new SecuredTransport[nodes.length];
      ClientTransportFactory using = clients;
      long seq = 0;
      while (!stopped) {
        if (using != clients) {
          using = clients;
          closeAll(open);
        }
        int n = (int) (seq % nodes.length);
        long entry = ((long) id << 48) | seq;
        try {
          if (open[n] == null) {
            open[n] = using.open("localhost", nodes[n].port());
          }
          ByteBuffer echoed = EchoServer.client(open[n]).echo(ByteBuffer.allocate(Long.BYTES).putLong(0, entry));
          if (echoed.getLong(echoed.position()) == entry) {
            acknowledged.add(entry);
            seq++;
          }
        } catch (TException | RuntimeException e) {
          retries.incrementAndGet();
          close(open[n]);
          open[n] = null;
          try {
            Thread.sleep(10);
          } catch (InterruptedException interrupted) {
            return;
          }
        }
      }
      closeAll(open);
    }

    private static void closeAll(SecuredTransport[] open) {
      for (int i = 0; i < open.length; i++) {
        close(open[i]);
        open[i] = null;
      }
    }

    private static void close(SecuredTransport transport) {
      if (transport != null) {
        transport.close();
      }
    }

    @Override
    public String toString() {
      return "client " + id + ": " + acknowledged.size() + " writes acknowledged, " + retries.get() + " retries";
    }
  }
}
