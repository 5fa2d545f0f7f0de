package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit.Stage;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.FrameReader;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.spi.SaslNegotiator;
import io.securethrift.core.spi.TlsEngines;
import io.securethrift.core.transport.SecuredTransport;
import java.io.EOFException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's life after accept, on its event loop: TLS completion (when the mode has TLS), the SASL negotiation
 * (evaluated on the authentication pool, never here), then data frames. A complete message runs on a worker; the
 * next one is taken once its reply is written, so one call per connection is in flight and replies keep their order.
 * Reads go on while a call runs, and stop only when a whole next message, or {@value #READ_AHEAD} bytes of it (or a
 * header over its limit), is waiting: turning reads off and on for every call cost two changes of the selector's
 * interest set per call, where a request-reply client never sends its next message before it has the reply. Bytes
 * are only ever buffered up to the size a frame header declared, after that size was checked, and at most one message
 * waits behind the running call, so a peer that pipelines large calls and never reads its replies makes the server
 * hold its one reply and a read-ahead, not a reply and a whole message.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);
  private static final byte[] EMPTY = new byte[0];
  /** The smallest receive accumulation buffer: a frame header and a small call fit. */
  private static final int MIN_BUFFER = 256;
  /** How much of the next message is read while a call runs: small calls whole, large ones when their turn comes. */
  private static final int READ_AHEAD = 64 * 1024;
  /** A reply larger than this is written as slices of about this size (see {@link #writeInSlices}). */
  private static final int REPLY_SLICE = 256 * 1024;

  private enum Phase {
    HANDSHAKE,
    NEGOTIATING,
    DATA,
    CLOSED
  }

  private final ServerContext server;
  private final TlsEngines.HandshakeRecord tlsRecord;
  private final FrameReader negotiationLimit;
  private final FrameReader frameLimit;
  private Channel channel;
  private String peer;
  private Phase phase = Phase.HANDSHAKE;
  /**
   * Bytes received and not yet consumed, copied out of each read; null while there are none, so an idle connection
   * holds no buffer. Copied because keeping each read's buffer (a composite of reads) pins a whole receive buffer,
   * 64 bytes to 2 KiB, for every read: a peer trickling one byte at a time toward a large declared frame would
   * make the server hold a hundred times what it sent.
   */
  private ByteBuf in;
  private PeerIdentity identity;
  private SaslNegotiator negotiator;
  private SaslDataCodec codec;
  private MessageScanner scanner;
  /** Unwrapped SASL bytes not yet dispatched. */
  private byte[] plain = EMPTY;
  private int plainLength;
  /** A negotiation step or a call is running (off the event loop, unless the server runs calls there). */
  private boolean busy;
  /** {@link #pump} is on the stack. */
  private boolean pumping;
  /** Reads were turned off because a whole message waits behind the running step or call. */
  private boolean readsPaused;
  private boolean authenticated;
  /** Whether this connection's failed handshake was audited: one outcome per connection, whatever closed it. */
  private boolean refused;
  private ScheduledFuture<?> deadline;
  private ScheduledFuture<?> idle;
  /** When the authenticated connection last received a message or sent a reply, for the idle timeout. */
  private long lastActivityNanos;
  /** When the connection was accepted, for the audit's handshake time. */
  private long acceptedNanos;

  ConnectionHandler(ServerContext server, TlsEngines.HandshakeRecord tlsRecord) {
    this.server = server;
    this.tlsRecord = tlsRecord;
    this.negotiationLimit = new FrameReader(server.limits().maxNegotiationMessageSize(),
        ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE.key());
    this.frameLimit = new FrameReader(server.limits().maxFrameSize(), ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    peer = String.valueOf(channel.remoteAddress());
    acceptedNanos = System.nanoTime();
    long millis = server.handshakeTimeout().toMillis();
    deadline = ctx.executor().schedule(this::deadlinePassed, millis, TimeUnit.MILLISECONDS);
    if (tlsRecord == null) {
      secured(server.factory().tcpIdentity(remote()));
    }
    ctx.fireChannelActive();
  }

  private InetSocketAddress remote() {
    return (InetSocketAddress) channel.remoteAddress();
  }

  private void deadlinePassed() {
    if (!authenticated && channel.isOpen()) {
      refuse(new TTransportException(TTransportException.TIMED_OUT, "handshake did not complete within "
          + server.handshakeTimeout().toMillis() + " ms (" + ConfigProperty.TIMEOUT_HANDSHAKE.key() + ")"));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event == Admission.EVICTED) {
      // A newer connection took this one's place among the unauthenticated; if it finished its handshakes
      // meanwhile it keeps its place.
      if (!authenticated && phase != Phase.CLOSED) {
        refuse(server.admission().evictionFailure());
      }
      return;
    }
    if (event instanceof SslHandshakeCompletionEvent && phase == Phase.HANDSHAKE) {
      SslHandshakeCompletionEvent done = (SslHandshakeCompletionEvent) event;
      ctx.pipeline().remove(HandshakeWatch.class);
      if (done.isSuccess()) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        secured(server.tlsEngines().identify(ssl.engine(), remote(), tlsRecord));
      } else {
        // Netty reports a peer that closed mid-handshake as a ClosedChannelException, which the TLS layer's
        // explanations (written for sockets) know as an end of file.
        Throwable cause = done.cause() instanceof ClosedChannelException
            ? new EOFException("connection closed") : done.cause();
        refuse(server.tlsEngines().explain(cause, peer, tlsRecord));
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /** The stream layer is done: negotiate SASL next, or serve. */
  private void secured(PeerIdentity streamIdentity) {
    identity = streamIdentity;
    if (server.usesSasl()) {
      negotiator = server.factory().saslNegotiator(streamIdentity, new ChannelReplies(channel)).orElseThrow();
      phase = Phase.NEGOTIATING;
    } else {
      serving(streamIdentity);
    }
    pump();
  }

  private void serving(PeerIdentity authenticatedIdentity) {
    identity = authenticatedIdentity;
    phase = Phase.DATA;
    authenticated = true;
    deadline.cancel(false);
    server.admission().authenticated(channel);
    audit().succeeded(authenticatedIdentity, sinceAccepted());
    touch();
  }

  /**
   * Restarts the idle clock of an authenticated connection. Only a time is noted: the one timer re-arms itself for
   * what remains when it fires, rather than being cancelled and scheduled again on every call.
   */
  private void touch() {
    lastActivityNanos = System.nanoTime();
    if (idle == null && server.idleTimeout().toNanos() > 0) {
      scheduleIdleCheck(server.idleTimeout().toNanos());
    }
  }

  private void scheduleIdleCheck(long delayNanos) {
    idle = channel.eventLoop().schedule(this::idleCheck, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void idleCheck() {
    if (!channel.isOpen()) {
      return;
    }
    long remaining = server.idleTimeout().toNanos() - (System.nanoTime() - lastActivityNanos);
    if (busy || remaining > 0) {
      // A running call is not idleness; its reply restarts the clock.
      scheduleIdleCheck(busy ? server.idleTimeout().toNanos() : remaining);
      return;
    }
    LOG.debug("closing idle connection with {} ({})", peer, ConfigProperty.SERVER_IDLE_TIMEOUT.key());
    channel.close();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (phase == Phase.CLOSED) {
      bytes.release();
      return;
    }
    try {
      if (in == null) {
        in = ctx.alloc().buffer(Math.max(MIN_BUFFER, bytes.readableBytes()));
      }
      // Grows by doubling: at most twice what has arrived, whatever a header declared.
      in.writeBytes(bytes);
    } finally {
      bytes.release();
    }
    pump();
  }

  /** Takes as many whole messages from the buffer as it can while nothing runs elsewhere. */
  private void pump() {
    if (pumping) {
      // A call ran on the event loop and was answered inside the loop below, which takes the next message itself:
      // answering it from here instead would nest one pump per buffered message.
      return;
    }
    pumping = true;
    try {
      pumpMessages();
    } finally {
      pumping = false;
    }
  }

  private void pumpMessages() {
    try {
      while (!busy) {
        if (server.draining()) {
          // Shutting down: nothing new starts; a connection closes once its call in flight has been answered.
          close();
          return;
        }
        if (phase == Phase.CLOSED || !channel.isActive()) {
          break;
        }
        boolean progressed;
        if (phase == Phase.NEGOTIATING) {
          progressed = negotiationMessage();
        } else if (phase == Phase.DATA) {
          progressed = dataFrame();
        } else {
          progressed = false;
        }
        if (!progressed) {
          break;
        }
      }
    } catch (TException e) {
      closeRefused(e);
      return;
    }
    compact();
    if (busy) {
      pauseIfWaiting();
    } else if (readsPaused && phase != Phase.CLOSED) {
      readsPaused = false;
      channel.config().setAutoRead(true);
    }
  }

  private void pauseReads() {
    if (!readsPaused && phase != Phase.CLOSED) {
      readsPaused = true;
      channel.config().setAutoRead(false);
    }
  }

  /**
   * While a step or call runs, turns reads off once the next message is whole, or once its header declares a length
   * over the limit (the check that refuses it runs when the message's turn comes): nothing more may be buffered.
   */
  private void pauseIfWaiting() {
    if (readsPaused || phase == Phase.CLOSED) {
      return;
    }
    int header = phase == Phase.NEGOTIATING ? 5 : 4;
    if (available() < header) {
      return;
    }
    long max = phase == Phase.NEGOTIATING ? server.limits().maxNegotiationMessageSize()
        : server.limits().maxFrameSize();
    int declared = in.getInt(in.readerIndex() + header - 4);
    if (declared < 0 || declared > max || available() - header >= Math.min(declared, READ_AHEAD)) {
      pauseReads();
    }
  }

  private boolean negotiationMessage() throws TException {
    if (available() < 5) {
      return false;
    }
    int start = in.readerIndex();
    byte status = in.getByte(start);
    if (status < 1 || status > 5) {
      // Not a status any Thrift peer sends: the negotiator names it and tells the peer, as the blocking server does.
      negotiator.receive(status, EMPTY);
    }
    int length;
    try {
      length = negotiationLimit.checkLength(in.getInt(start + 1));
    } catch (TTransportException e) {
      throw negotiator.refuse(e);
    }
    if (in.readableBytes() < 5 + length) {
      return false;
    }
    in.skipBytes(5);
    byte[] payload = new byte[length];
    in.readBytes(payload);
    busy = true;
    SaslNegotiator current = negotiator;
    try {
      server.authenticationPool().execute(() -> {
        if (!channel.isOpen()) {
          // Closed while its step waited (evicted, or the peer left): the mechanism has nothing to answer.
          channel.eventLoop().execute(() -> negotiationStepDone(null, null));
          return;
        }
        SaslDataCodec result = null;
        Exception failure = null;
        try {
          result = current.receive(status, payload);
        } catch (TException | RuntimeException e) {
          failure = e;
        } catch (Throwable e) {
          // An Error from the mechanism must still end the step, or the connection would wait on it for ever.
          failure = new HandshakeFailure(AuthFailure.SASL_BAD, "the SASL mechanism failed: "
              + PeerText.sanitize(String.valueOf(e)), e);
        }
        SaslDataCodec completed = result;
        Exception failed = failure;
        channel.eventLoop().execute(() -> negotiationStepDone(completed, failed));
      });
    } catch (RejectedExecutionException e) {
      // The queue holds a step for each unauthenticated connection and for as many evicted ones, so a pool that
      // refuses one is shutting down, or a flood of complete negotiation messages outruns the mechanisms.
      busy = false;
      refuse(new HandshakeFailure(AuthFailure.OVER_LIMIT, "the authentication pool accepts no more negotiation"
          + " steps (the server is shutting down, or " + server.authenticationQueueCapacity()
          + " steps are waiting)", null));
    }
    return true;
  }

  private void negotiationStepDone(SaslDataCodec completed, Exception failure) {
    busy = false;
    if (!channel.isOpen()) {
      // Closed while the step ran: the peer left (often right after telling why, which the failure holds), or the
      // deadline or an eviction closed it and was audited. channelInactive left the audit and the keys to this step.
      refuse(failure != null ? failure : completed != null ? closedByPeer() : closedMidNegotiation());
      if (completed != null) {
        completed.dispose();
        negotiator = null;
      }
      release();
      return;
    }
    if (failure != null) {
      refuse(failure);
      return;
    }
    if (completed != null) {
      codec = completed;
      negotiator = null;
      scanner = new MessageScanner(completed.identity(), server.limits().maxFrameSize());
      serving(completed.identity());
    }
    pump();
  }

  private boolean dataFrame() throws TException {
    if (codec != null && plainLength > 0 && dispatchBuffered()) {
      return true;
    }
    if (available() < 4) {
      return false;
    }
    int length = frameLimit.checkLength(in.getInt(in.readerIndex()));
    if (in.readableBytes() < 4 + length) {
      return false;
    }
    touch();
    if (codec == null) {
      byte[] frame = new byte[4 + length];
      in.readBytes(frame);
      dispatch(frame);
      return true;
    }
    in.skipBytes(4);
    byte[] payload = new byte[length];
    in.readBytes(payload);
    byte[] unwrapped = length == 0 ? EMPTY : codec.unwrap(payload, length);
    byte[] reply = codec.takeReply();
    if (reply != null) {
      // The answer to a privacy key exchange; the client sends no call before it arrives, so nothing is in flight.
      identity = codec.identity();
      channel.writeAndFlush(Unpooled.wrappedBuffer(lengthPrefix(reply.length), reply));
    }
    appendPlain(unwrapped);
    return true;
  }

  private static byte[] lengthPrefix(int length) {
    return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
  }

  private int available() {
    return in == null ? 0 : in.readableBytes();
  }

  /**
   * Gives back the buffer once everything in it was consumed, else the part consumed when it is large; a buffer that
   * grew for a large message and now holds a small part of the next one is swapped for one its size. While a call
   * runs, what waits behind it moves to the heap: a peer that pipelines and never reads its replies would otherwise
   * keep its read-ahead in the pool's direct memory for as long as it likes, each one pinning a whole pool chunk.
   * A request-reply client has nothing behind its call, so its buffer goes back to the pool as before.
   */
  private void compact() {
    if (in == null) {
      return;
    }
    if (!in.isReadable()) {
      in.release();
      in = null;
    } else if (busy && in.isDirect() || in.capacity() > READ_AHEAD && in.capacity() > 4 * in.readableBytes()) {
      ByteBuf smaller = Unpooled.buffer(Math.max(MIN_BUFFER, in.readableBytes()));
      smaller.writeBytes(in);
      in.release();
      in = smaller;
    } else {
      in.discardSomeReadBytes();
    }
  }

  private void appendPlain(byte[] bytes) {
    if (plainLength + bytes.length > plain.length) {
      plain = Arrays.copyOf(plain, Math.max(plainLength + bytes.length, 2 * plain.length));
    }
    System.arraycopy(bytes, 0, plain, plainLength, bytes.length);
    plainLength += bytes.length;
  }

  /** Dispatches the first whole message of the unwrapped bytes, if they hold one. */
  private boolean dispatchBuffered() throws TException {
    int length = scanner.firstMessage(server.protocolFactory(), plain, plainLength);
    if (length < 0) {
      return false;
    }
    byte[] frame = new byte[4 + length];
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    System.arraycopy(plain, 0, frame, 4, length);
    System.arraycopy(plain, length, plain, 0, plainLength - length);
    plainLength -= length;
    dispatch(frame);
    return true;
  }

  /**
   * Runs one call on a worker, the event loop going on with other connections; or, where the server runs calls on
   * the event loop, here and now.
   */
  private void dispatch(byte[] frame) {
    busy = true;
    // Counted until the reply is written, so a graceful shutdown waits for the reply and not just the call.
    server.beginCall();
    if (server.callsOnEventLoop()) {
      Reply reply = call(frame, identity, codec);
      callDone(reply.frames, reply.close);
      return;
    }
    PeerIdentity caller = identity;
    SaslDataCodec data = codec;
    server.workers().execute(() -> {
      Reply reply = call(frame, caller, data);
      channel.eventLoop().execute(() -> callDone(reply.frames, reply.close));
    });
  }

  /** A call's reply frames, and whether the connection closes instead. */
  private static final class Reply {
    final List<byte[]> frames;
    final boolean close;

    Reply(List<byte[]> frames, boolean close) {
      this.frames = frames;
      this.close = close;
    }
  }

  /** Runs the processor on one request frame, on whatever thread runs calls. */
  private Reply call(byte[] frame, PeerIdentity caller, SaslDataCodec data) {
    MemoryStream stream = new MemoryStream(frame);
    SecuredTransport transport = server.factory().framedTransport(stream, caller);
    try {
      server.processor().process(server.protocolFactory().getProtocol(transport),
          server.protocolFactory().getProtocol(transport));
      return new Reply(data == null ? stream.writtenChunks() : frames(stream.written(), data), stream.closed());
    } catch (TException | RuntimeException e) {
      // The identity processor has reported a refused message; anything else is reported here.
      if (!stream.closed()) {
        audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.CALL, PeerText.describe(e));
      }
      return new Reply(List.of(), true);
    } catch (Throwable e) {
      // An Error (a service's AssertionError, a StackOverflowError, an OutOfMemoryError) must still end the call:
      // the connection closes, its call in flight is counted done, and the worker goes on with other connections.
      LOG.error("closing connection with {}: the call failed with {}", peer, PeerText.describe(e));
      LOG.debug("the call's error", e);
      return new Reply(List.of(), true);
    }
  }

  /**
   * A SASL reply as wire frames: its payload cut into frames of at most the negotiated size, each wrapped when the
   * QOP says so (a Thrift-framed reply goes as written, see {@link MemoryStream#writtenChunks}). Runs on the worker,
   * in call order, one call at a time.
   */
  private static List<byte[]> frames(byte[] framed, SaslDataCodec data) throws TException {
    if (framed.length == 0) {
      return List.of();
    }
    List<byte[]> frames = new ArrayList<>();
    for (int offset = 4; offset < framed.length; offset += data.chunkSize()) {
      int length = Math.min(data.chunkSize(), framed.length - offset);
      byte[] payload = data.wraps() ? data.wrap(framed, offset, length) : Arrays.copyOfRange(framed, offset,
          offset + length);
      frames.add(lengthPrefix(payload.length));
      frames.add(payload);
    }
    return frames;
  }

  private void callDone(List<byte[]> frames, boolean close) {
    if (close || !channel.isOpen()) {
      callClosed();
      return;
    }
    if (frames.isEmpty()) {
      server.endCall();
      resume();
      return;
    }
    long bytes = 0;
    for (byte[] frame : frames) {
      bytes += frame.length;
    }
    ChannelFuture write = bytes <= REPLY_SLICE
        ? channel.writeAndFlush(Unpooled.wrappedBuffer(frames.toArray(new byte[0][]))) : writeInSlices(frames);
    if (!write.isDone()) {
      server.replyPending(channel, bytes, write);
    }
    if (!write.isDone() && server.writeTimeout().toNanos() > 0) {
      // A peer that stops reading (a zero TCP window) would hold the connection, its reply and its next request for
      // ever: the connection stays busy, and busy is not idle. The reply gets as long as a read would.
      ScheduledFuture<?> deadline = channel.eventLoop().schedule(() -> {
        if (!write.isDone()) {
          LOG.debug("closing connection with {}: its reply was not taken within {} ({})", peer, server.writeTimeout(),
              ConfigProperty.TIMEOUT_READ.key());
          channel.close();
        }
      }, server.writeTimeout().toNanos(), TimeUnit.NANOSECONDS);
      write.addListener(done -> deadline.cancel(false));
    }
    write.addListener(written -> {
      if (written.isSuccess()) {
        server.endCall();
        resume();
      } else {
        callClosed();
      }
    });
  }

  /**
   * Writes a large reply as slices of about {@link #REPLY_SLICE} bytes, all at once and flushed together, and returns
   * the last slice's future, which completes when the whole reply is written. Netty copies each buffer it is given
   * from the heap into its pooled direct memory, rounded up to the pool's next size: the reply as one buffer took a
   * 1.25 MiB copy for a 1 MiB reply, for as long as a peer that does not read leaves it there, and such copies pinned
   * whole pool chunks. Slices are copied each to a size the pool holds exactly.
   */
  private ChannelFuture writeInSlices(List<byte[]> frames) {
    ChannelFuture last = null;
    int from = 0;
    while (from < frames.size()) {
      int to = from;
      long bytes = 0;
      while (to < frames.size() && bytes < REPLY_SLICE) {
        bytes += frames.get(to++).length;
      }
      ByteBuf slice = Unpooled.wrappedBuffer(frames.subList(from, to).toArray(new byte[0][]));
      last = to < frames.size() ? channel.write(slice) : channel.writeAndFlush(slice);
      from = to;
    }
    return last;
  }

  private void callClosed() {
    server.endCall();
    busy = false;
    channel.close();
    release();
  }

  private void resume() {
    busy = false;
    touch();
    pump();
  }

  /** Whether a call runs for this connection; graceful shutdown waits for these. */
  boolean busy() {
    return busy;
  }

  /**
   * Audits a connection refused before it authenticated, which the main log may warn about, and closes it. Only the
   * first refusal of a connection is audited: a deadline, an eviction and the peer's leaving can all close it.
   */
  private void refuse(Throwable error) {
    if (!refused) {
      refused = true;
      audit().failed(channel.remoteAddress(), stage(), error, sinceAccepted());
    }
    close();
  }

  /**
   * The peer closed mid-negotiation: the negotiator tells what it had seen (nothing yet, or the QOP offer), as the
   * blocking server's does on end of file.
   */
  private TTransportException closedMidNegotiation() {
    return negotiator.refuse(closedByPeer());
  }

  private static TTransportException closedByPeer() {
    return new TTransportException(TTransportException.END_OF_FILE, "Socket is closed by peer.");
  }

  /**
   * The layer a connection that has not authenticated is in; a negotiator outlives the phase when the connection
   * closed while a step of it ran.
   */
  private Stage stage() {
    return phase == Phase.NEGOTIATING || negotiator != null || tlsRecord == null ? Stage.SASL : Stage.TLS;
  }

  private HandshakeAudit audit() {
    return server.factory().audit();
  }

  private Duration sinceAccepted() {
    return Duration.ofNanos(System.nanoTime() - acceptedNanos);
  }

  private void closeRefused(TException cause) {
    if (authenticated) {
      audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.FRAME, PeerText.describe(cause));
      close();
    } else {
      refuse(cause);
    }
  }

  private void close() {
    phase = Phase.CLOSED;
    channel.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (phase == Phase.NEGOTIATING && !busy) {
      // A step running elsewhere audits the connection when it ends, with what the peer said last.
      refuse(closedMidNegotiation());
    }
    phase = Phase.CLOSED;
    if (deadline != null) {
      deadline.cancel(false);
    }
    if (idle != null) {
      idle.cancel(false);
    }
    if (in != null) {
      in.release();
      in = null;
    }
    if (!busy) {
      release();
    }
    ctx.fireChannelInactive();
  }

  /** Releases SASL keys once nothing else uses them. */
  private void release() {
    if (codec != null) {
      codec.dispose();
      codec = null;
    }
    if (negotiator != null) {
      negotiator.dispose();
      negotiator = null;
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (phase == Phase.HANDSHAKE && tlsRecord != null) {
      // The handshake completion event follows and names the cause.
      return;
    }
    LOG.debug("connection with {} failed: {}", peer, PeerText.describe(cause));
    close();
  }
}
