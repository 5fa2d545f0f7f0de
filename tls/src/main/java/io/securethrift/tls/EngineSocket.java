package io.securethrift.tls;

import io.securethrift.core.internal.LayeredSocket;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A blocking TLS socket over a connected TCP socket, driven by an {@link SSLEngine}, that moves several records per
 * system call. The engines' own sockets (JSSE's {@code SSLSocket}, Conscrypt's {@code ConscryptEngineSocket}) write
 * one record per {@code write()} and read one record per {@code read()}, so a 57 KB Thrift frame costs four writes on
 * one side and, on the other, four reads, most of them failing with {@code EAGAIN} and followed by a {@code poll()}.
 *
 * <ul>
 *   <li>Writes are sealed into as many records as they fill, into one outbound buffer of {@value #RECORDS_PER_BATCH}
 *       records, which goes to the socket in one write at {@code flush()}, or when it is full. Thrift's transports
 *       flush after each message (libthrift's socket buffers small writes until then too).
 *   <li>Reads take whatever the socket holds, up to {@value #RECORDS_PER_BATCH} records, and every complete record is
 *       opened before the socket is read again: straight into the caller's array when it has room for a record, else
 *       into a one-record buffer the next reads are served from.
 *   <li>The handshake runs in {@link #handshake()}, on the caller's thread, delegated tasks inline (the handshake
 *       trust manager's bookkeeping is per thread). Handshake messages after it (TLS 1.3 session tickets and key
 *       updates, a TLS 1.2 renegotiation the server refuses) are answered from the read that meets them.
 *   <li>Exceptions after the handshake leave through {@link EngineErrors}: in TLS 1.3 a server's rejection of the
 *       client's certificate reaches the client at its first read, as the engine's text.
 * </ul>
 *
 * <p>Timeouts are the TCP socket's: its read timeout applies to every read of the socket, and closing it (core's
 * handshake and write deadlines) ends a blocked read or write.
 */
final class EngineSocket extends LayeredSocket {
  /** Records per socket read or write at most: 64 KiB of plaintext, a whole Thrift frame of typical size. */
  static final int RECORDS_PER_BATCH = 4;
  private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

  private final SSLEngine engine;
  private final InputStream tcpIn;
  private final OutputStream tcpOut;
  private final Object readLock = new Object();
  /** Held while sealing and writing; a reader answering a handshake message takes it too. */
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final InputStream input = new Input();
  private final OutputStream output = new Output();
  /** Received records not opened yet, between position and limit. */
  private ByteBuffer netIn;
  /** Opened plaintext not read yet, between position and limit. */
  private ByteBuffer plainIn;
  /** Sealed records not written yet, from 0 to position. */
  private ByteBuffer netOut;
  /** Whether the peer's close_notify, or the end of the stream after the handshake, was read. */
  private boolean inboundDone;
  /** The engine's largest record and its plaintext, as its session last said. */
  private int packetSize;
  private int plainSize;

  EngineSocket(Socket tcp, SSLEngine engine) throws IOException {
    super(tcp);
    this.engine = engine;
    this.tcpIn = tcp.getInputStream();
    this.tcpOut = tcp.getOutputStream();
    readSizes();
    this.netIn = ByteBuffer.allocate(RECORDS_PER_BATCH * packetSize).flip();
    this.plainIn = ByteBuffer.allocate(plainSize).flip();
    this.netOut = ByteBuffer.allocate(RECORDS_PER_BATCH * packetSize);
  }

  private void readSizes() {
    packetSize = engine.getSession().getPacketBufferSize();
    plainSize = engine.getSession().getApplicationBufferSize();
  }

  /**
   * Runs the handshake to its end. On an engine's error the alert it holds for the peer is sent first, so the peer
   * learns why (a rejected certificate, no common suite).
   */
  void handshake() throws IOException {
    try {
      engine.beginHandshake();
      HandshakeStatus status = engine.getHandshakeStatus();
      while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
        status = step(status);
      }
      sendHeld();
      // A JSSE server holds its TLS 1.3 session tickets once the handshake is over.
      answer(engine.getHandshakeStatus());
      readSizes();
    } catch (SSLException e) {
      sendClosure();
      throw e;
    }
  }

  /** One handshake step; returns the engine's status after it. */
  private HandshakeStatus step(HandshakeStatus status) throws IOException {
    switch (status) {
      case NEED_TASK:
        runTasks();
        return engine.getHandshakeStatus();
      case NEED_WRAP:
        return wrapHandshake();
      default:
        plainIn.compact();
        try {
          while (true) {
            SSLEngineResult result = engine.unwrap(netIn, plainIn);
            switch (result.getStatus()) {
              case BUFFER_UNDERFLOW:
                // Netty's OpenSSL engine can finish the handshake on an unwrap it gives too few bytes to: it moves
                // its state machine before it looks at them.
                if (result.getHandshakeStatus() != HandshakeStatus.NEED_UNWRAP) {
                  return result.getHandshakeStatus();
                }
                if (!fill()) {
                  throw new EOFException("the peer closed the connection during the TLS handshake");
                }
                break;
              case BUFFER_OVERFLOW:
                readSizes();
                plainIn = enlarged(plainIn.flip(), plainSize);
                break;
              case CLOSED:
                throw new EOFException("the peer closed TLS (close_notify) during the handshake");
              default:
                // Netty's OpenSSL engine answers a partial record with OK, taking and giving nothing, where JSSE and
                // Conscrypt answer BUFFER_UNDERFLOW: either way it waits for bytes from the peer.
                if (result.bytesConsumed() == 0 && result.bytesProduced() == 0
                    && result.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP) {
                  if (!fill()) {
                    throw new EOFException("the peer closed the connection during the TLS handshake");
                  }
                  break;
                }
                return result.getHandshakeStatus();
            }
          }
        } finally {
          plainIn.flip();
        }
    }
  }

  private void runTasks() {
    for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
      task.run();
    }
  }

  /** Seals what the engine has to send of a handshake and writes it; returns the engine's status after it. */
  private HandshakeStatus wrapHandshake() throws IOException {
    writeLock.lock();
    try {
      SSLEngineResult result;
      do {
        result = seal(NOTHING);
      } while (result.getHandshakeStatus() == HandshakeStatus.NEED_WRAP
          && result.getStatus() == SSLEngineResult.Status.OK);
      send();
      return result.getHandshakeStatus();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Sends what the engine still holds once its handshake is over. Netty's OpenSSL engine reports the end of the
   * handshake from the unwrap that completes it, and {@code NOT_HANDSHAKING} from then on, while its own last messages
   * (a client's Finished, a TLS 1.3 server's session tickets) still wait in its buffer: wraps of nothing send them, as
   * Netty's {@code SslHandler} wraps after any unwrap that finished the handshake. JSSE and Conscrypt wrap nothing here
   * when they hold nothing.
   */
  private void sendHeld() throws IOException {
    writeLock.lock();
    try {
      sealAndSendHeld();
    } finally {
      writeLock.unlock();
    }
  }

  /** Seals until the engine produces nothing more, and writes it. Called with the write lock held. */
  private void sealAndSendHeld() throws IOException {
    SSLEngineResult result;
    do {
      result = seal(NOTHING);
    } while (result.bytesProduced() > 0 && result.getStatus() == SSLEngineResult.Status.OK);
    send();
  }

  /** Answers what a record read after the handshake asked for: a task to run, or a message to send back. */
  private void answer(HandshakeStatus status) throws IOException {
    while (status == HandshakeStatus.NEED_TASK || status == HandshakeStatus.NEED_WRAP) {
      if (status == HandshakeStatus.NEED_TASK) {
        runTasks();
        status = engine.getHandshakeStatus();
      } else {
        status = wrapHandshake();
      }
    }
  }

  /** Best effort: sends the alert a failed engine holds, or else close_notify. */
  private void sendClosure() {
    if (!writeLock.tryLock()) {
      return;
    }
    try {
      engine.closeOutbound();
      sealAndSendHeld();
    } catch (IOException | RuntimeException ignored) {
      // The connection is failing or closing already; the peer then learns of it by the end of the stream.
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Seals from {@code src} into the outbound buffer, writing the buffer first when it has no room for a record.
   * Called with the write lock held.
   */
  private SSLEngineResult seal(ByteBuffer src) throws IOException {
    while (true) {
      if (netOut.remaining() < packetSize) {
        send();
      }
      SSLEngineResult result = engine.wrap(src, netOut);
      if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
        return result;
      }
      // A Conscrypt TLS 1.3 server adds its session tickets to its first record, more than one record's room.
      if (netOut.position() > 0) {
        send();
      } else {
        netOut = ByteBuffer.allocate(2 * netOut.capacity());
      }
    }
  }

  /** Writes the sealed records in one write. Called with the write lock held. */
  private void send() throws IOException {
    if (netOut.position() > 0) {
      tcpOut.write(netOut.array(), 0, netOut.position());
      netOut.clear();
    }
  }

  /** Reads from the socket once, into the room after the held records; false at the end of the stream. */
  private boolean fill() throws IOException {
    netIn.compact();
    try {
      if (!netIn.hasRemaining()) {
        // The engine wants a record larger than the buffer's room: its packet size, never a peer's length field.
        readSizes();
        netIn = enlarged(netIn.flip(), packetSize);
      }
      int n = tcpIn.read(netIn.array(), netIn.position(), netIn.remaining());
      if (n < 0) {
        return false;
      }
      netIn.position(netIn.position() + n);
      return true;
    } finally {
      netIn.flip();
    }
  }

  /** A buffer holding {@code content}'s remaining bytes, with room for {@code more} after them (in write mode). */
  private static ByteBuffer enlarged(ByteBuffer content, int more) {
    return ByteBuffer.allocate(content.remaining() + more).put(content);
  }

  /**
   * Opens the complete records held into {@code dst} while it has room for a record. Returns whether it stopped for
   * want of bytes from the socket.
   */
  private boolean openHeld(ByteBuffer dst) throws IOException {
    while (!inboundDone && dst.remaining() >= plainSize) {
      if (!netIn.hasRemaining()) {
        return true;
      }
      SSLEngineResult result = engine.unwrap(netIn, dst);
      switch (result.getStatus()) {
        case BUFFER_UNDERFLOW:
          return true;
        case BUFFER_OVERFLOW:
          readSizes();
          return false;
        case CLOSED:
          inboundDone = true;
          break;
        default:
          if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
            return true;
          }
      }
      answer(result.getHandshakeStatus());
    }
    return false;
  }

  private int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    synchronized (readLock) {
      boolean direct = true;
      while (true) {
        if (plainIn.hasRemaining()) {
          int n = Math.min(len, plainIn.remaining());
          plainIn.get(b, off, n);
          return n;
        }
        if (inboundDone) {
          return -1;
        }
        boolean wantsBytes;
        if (direct && len >= plainSize) {
          ByteBuffer into = ByteBuffer.wrap(b, off, len);
          wantsBytes = openHeld(into);
          if (into.position() > off) {
            return into.position() - off;
          }
          // Without room for the engine's record (its sizes grew), the next try opens it into the buffer.
          direct = wantsBytes;
        } else {
          plainIn.compact();
          try {
            wantsBytes = openHeld(plainIn);
          } finally {
            plainIn.flip();
          }
          if (!wantsBytes && !plainIn.hasRemaining() && !inboundDone) {
            plainIn = enlarged(plainIn, plainSize).flip();
          }
        }
        if (wantsBytes && !plainIn.hasRemaining() && !fill()) {
          // The end of the stream without close_notify, as the engines' own sockets take it after the handshake.
          inboundDone = true;
        }
      }
    }
  }

  private void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    ByteBuffer src = ByteBuffer.wrap(b, off, len);
    writeLock.lock();
    try {
      while (src.hasRemaining()) {
        SSLEngineResult result = seal(src);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
          throw new SocketException("TLS is closed for writing");
        }
        if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
          throw new SSLException("the TLS engine takes no data while its handshake waits for the peer ("
              + result.getHandshakeStatus() + ")");
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  private void flush() throws IOException {
    writeLock.lock();
    try {
      send();
    } finally {
      writeLock.unlock();
    }
  }

  private final class Input extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return EngineSocket.this.read(b, off, len);
      } catch (SSLException e) {
        sendClosure();
        throw EngineErrors.safe(e);
      } catch (IOException e) {
        throw EngineErrors.safe(e);
      }
    }

    @Override
    public int available() {
      synchronized (readLock) {
        return plainIn.remaining();
      }
    }

    @Override
    public void close() throws IOException {
      EngineSocket.this.close();
    }
  }

  private final class Output extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        EngineSocket.this.write(b, off, len);
      } catch (IOException e) {
        throw EngineErrors.safe(e);
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        EngineSocket.this.flush();
      } catch (IOException e) {
        throw EngineErrors.safe(e);
      }
    }

    @Override
    public void close() throws IOException {
      EngineSocket.this.close();
    }
  }

  @Override
  public InputStream getInputStream() {
    return input;
  }

  @Override
  public OutputStream getOutputStream() {
    return output;
  }

  /**
   * Sends what is sealed and close_notify, then closes the TCP socket. A writer blocked on a peer that reads nothing
   * keeps the write lock; close then skips close_notify rather than wait, and closing the socket ends that write.
   */
  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      try {
        sendClosure();
      } finally {
        super.close();
      }
    }
  }
}
