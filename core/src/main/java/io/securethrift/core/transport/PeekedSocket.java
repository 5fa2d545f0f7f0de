package io.securethrift.core.transport;

import io.securethrift.core.internal.LayeredSocket;
import io.securethrift.core.internal.PortUnification;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.Socket;

/**
 * A connected TCP socket whose first byte was read to choose the connection's layers, and which gives that byte back:
 * its input stream replays it before the socket's own. Everything else is the TCP socket's.
 */
final class PeekedSocket extends LayeredSocket {
  private final int firstByte;
  private final InputStream input;
  private final OutputStream output;

  private PeekedSocket(Socket tcp, int firstByte) throws IOException {
    super(tcp);
    this.firstByte = firstByte;
    this.input = new SequenceInputStream(new ByteArrayInputStream(new byte[] {(byte) firstByte}),
        tcp.getInputStream());
    this.output = tcp.getOutputStream();
  }

  /**
   * Reads the first byte of {@code tcp}, under its read timeout and the handshake deadline.
   *
   * @throws IOException a classified failure when the peer closes before sending a byte
   */
  static PeekedSocket peek(Socket tcp) throws IOException {
    int first = tcp.getInputStream().read();
    if (first < 0) {
      throw PortUnification.closedBeforeFirstByte();
    }
    return new PeekedSocket(tcp, first);
  }

  int firstByte() {
    return firstByte;
  }

  @Override
  public InputStream getInputStream() {
    return input;
  }

  @Override
  public OutputStream getOutputStream() {
    return output;
  }
}
