package io.securethrift.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP peer for OCSP tests that counts the requests it gets: a relay in front of a real responder, or a
 * hostile responder answering every request with fixed bytes, or with nothing at all. Every connection runs on its own
 * daemon thread; {@link #close()} closes them all.
 */
final class CountingServer implements AutoCloseable {
  private static final byte[] POST = "POST ".getBytes(StandardCharsets.US_ASCII);
  /** The JDK's own OCSP client (its checker, its stapling server) asks with GET when the request is small. */
  private static final byte[] GET = "GET ".getBytes(StandardCharsets.US_ASCII);

  /** What the server does with one request, whose head and body have been read from {@code client}. */
  private interface Answer {
    void answer(byte[] request, Socket client) throws IOException;
  }

  private final ServerSocket listening;
  private final Answer answer;
  private final AtomicInteger requests = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  private CountingServer(Answer answer) {
    this.answer = answer;
    try {
      this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    daemon(this::acceptLoop, "counting-server-" + listening.getLocalPort());
  }

  /**
   * Passes each request to the responder on {@code port} and its answer back, one connection per request: the request
   * goes out with {@code Connection: close}, so the responder's answer ends where its connection does.
   */
  static CountingServer relayTo(int port) {
    return new CountingServer((request, client) -> {
      String text = new String(request, StandardCharsets.ISO_8859_1);
      int headEnd = text.indexOf("\r\n\r\n");
      String head = text.substring(0, headEnd).replaceAll("(?im)^connection:[^\r\n]*\r\n", "")
          .replaceAll("(?i)\r\nconnection:[^\r\n]*$", "") + "\r\nConnection: close";
      try (Socket responder = new Socket(InetAddress.getLoopbackAddress(), port)) {
        responder.getOutputStream().write((head + text.substring(headEnd)).getBytes(StandardCharsets.ISO_8859_1));
        responder.getInputStream().transferTo(client.getOutputStream());
      }
    });
  }

  /** Answers every request with {@code response} (status line, headers and body) and closes. */
  static CountingServer answering(byte[] response) {
    return new CountingServer((request, client) -> client.getOutputStream().write(response));
  }

  /** Answers with a 200 whose body, with no length announced, runs to {@code bodyBytes} zeros. */
  static CountingServer streaming(int bodyBytes) {
    return new CountingServer((request, client) -> {
      OutputStream out = client.getOutputStream();
      out.write("HTTP/1.0 200 OK\r\nContent-Type: application/ocsp-response\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[8192];
      for (int sent = 0; sent < bodyBytes; sent += chunk.length) {
        out.write(chunk);
      }
    });
  }

  /** Reads every request and never answers, until closed. */
  static CountingServer silent() {
    return new CountingServer((request, client) -> client.getInputStream().read());
  }

  /** The URL to name as the responder. */
  String url() {
    return "http://127.0.0.1:" + listening.getLocalPort();
  }

  /** How many requests arrived so far. */
  int requests() {
    return requests.get();
  }

  @Override
  public void close() throws IOException {
    listening.close();
    for (Socket socket : open) {
      socket.close();
    }
  }

  private void acceptLoop() {
    while (!listening.isClosed()) {
      Socket client;
      try {
        client = listening.accept();
      } catch (IOException closed) {
        return;
      }
      open.add(client);
      daemon(() -> serve(client), "counting-server-connection");
    }
  }

  private void serve(Socket client) {
    try (client) {
      byte[] request = readRequest(client.getInputStream());
      if (startsWith(request, POST) || startsWith(request, GET)) {
        requests.incrementAndGet();
      }
      answer.answer(request, client);
    } catch (IOException ended) {
      // The client gave up (a timeout under test) or the server closed: nothing to answer.
    } finally {
      open.remove(client);
    }
  }

  /** The request's head and its Content-Length body (an OCSP request is a few hundred bytes). */
  private static byte[] readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    int contentLength = 0;
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b >= 0; b = in.read()) {
      request.write(b);
      if (b != '\n') {
        line.append((char) b);
        continue;
      }
      String header = line.toString().trim();
      line.setLength(0);
      if (header.isEmpty()) {
        request.write(in.readNBytes(contentLength));
        return request.toByteArray();
      }
      if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        contentLength = Math.min(4096, Integer.parseInt(header.substring(15).trim()));
      }
    }
    return request.toByteArray();
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static void daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
  }
}
