package io.securethrift.sasl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** The Thrift SASL negotiation wire by hand, for tests that play a peer no library would be. */
final class SaslWire {
  private SaslWire() {}

  /** Sends one negotiation message: status byte, 4-byte length, payload. */
  static void send(Socket socket, int status, byte[] payload) throws IOException {
    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
    out.writeByte(status);
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  /** Reads one negotiation message and returns its status and UTF-8 payload as "status:payload". */
  static String read(Socket socket) throws IOException {
    DataInputStream in = new DataInputStream(socket.getInputStream());
    int status = in.readUnsignedByte();
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    return status + ":" + new String(payload, StandardCharsets.UTF_8);
  }

  /** Reads one negotiation message's payload, failing (with what came instead) unless its status is {@code status}. */
  static byte[] expect(Socket socket, int status) throws IOException {
    DataInputStream in = new DataInputStream(socket.getInputStream());
    int got = in.readUnsignedByte();
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    if (got != status) {
      throw new IOException("expected status " + status + ", got " + got + ":"
          + new String(payload, StandardCharsets.UTF_8));
    }
    return payload;
  }
}
