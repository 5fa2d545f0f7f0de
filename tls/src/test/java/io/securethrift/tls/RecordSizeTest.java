package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A large Thrift message leaves the client in full 16 KiB TLS records: a relay between client and server reads the
 * TLS record headers of the client's bytes and lists the record lengths.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class RecordSizeTest {
  private static final int MAX_PLAINTEXT = 16 * 1024;

  @EachTlsEngine
  void largeMessageGoesOutInFullRecords(TlsEngine engine, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path store = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    Path trust = TlsTestConfigs.trustStore(ca, dir);
    List<Integer> records = new CopyOnWriteArrayList<>();
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(
            TlsTestConfigs.tls(engine, store, trust).build());
         ClientTransportFactory clientFactory = ClientTransportFactory.create(
             TlsTestConfigs.tls(engine, null, trust).build());
         ServerSocket relay = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      EchoServer server = EchoServer.start(serverFactory);
      Thread relayThread = new Thread(() -> relay(relay, server.port(), records), "record-relay");
      relayThread.setDaemon(true);
      relayThread.start();
      try (SecuredTransport transport = clientFactory.open("localhost", relay.getLocalPort())) {
        var client = EchoServer.client(transport);
        client.echo(ByteBuffer.allocate(16));
        int before = records.size();
        int size = 10 * MAX_PLAINTEXT;
        assertEquals(size, client.echo(ByteBuffer.allocate(size)).remaining());
        List<Integer> message = records.subList(before, records.size());
        long full = message.stream().filter(length -> length >= MAX_PLAINTEXT).count();
        assertTrue(full >= 10 && message.size() <= 12, "record lengths of a " + size + "-byte message: " + message);
      } finally {
        server.close();
      }
    }
  }

  /** Relays one connection, parsing the client-to-server direction into TLS records. */
  private static void relay(ServerSocket relay, int port, List<Integer> records) {
    try (Socket client = relay.accept(); Socket server = new Socket(InetAddress.getLoopbackAddress(), port)) {
      Thread back = new Thread(() -> copy(server, client), "record-relay-back");
      back.setDaemon(true);
      back.start();
      DataInputStream in = new DataInputStream(client.getInputStream());
      OutputStream out = server.getOutputStream();
      byte[] header = new byte[5];
      while (true) {
        in.readFully(header);
        int length = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
        byte[] body = new byte[length];
        in.readFully(body);
        if (header[0] == 23) {
          records.add(length);
        }
        out.write(header);
        out.write(body);
        out.flush();
      }
    } catch (IOException closed) {
      // The test closed its connection.
    }
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException closed) {
      // Either side closed.
    }
  }
}
