package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connection pipeline's handlers on an {@link EmbeddedChannel}, one or two at a time: when the {@link FrameCodec}
 * takes a frame, checks its header and stops reading, and how {@link SaslData} cuts a stream of tokens into calls.
 */
class PipelineHandlersTest {
  private static final int MAX_FRAME = 1 << 20;
  private static ServerTransportFactory factory;
  private static ServerContext server;

  @BeforeAll
  static void context() {
    factory = ServerTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.NONE).maxFrameSize(MAX_FRAME)
        .build());
    server = new ServerContext(factory, (in, out) -> { }, new TBinaryProtocol.Factory(), null, false, null);
  }

  @AfterAll
  static void close() {
    factory.close();
  }

  /** The handler after the one under test: keeps what it is passed and what fails, and asks for more when told to. */
  private static final class Taker extends ChannelInboundHandlerAdapter {
    final List<byte[]> taken = new ArrayList<>();
    final List<Throwable> failed = new ArrayList<>();
    final List<Integer> stackDepths = new ArrayList<>();
    MessageSource source;
    boolean askAgainAtOnce;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      stackDepths.add(Thread.currentThread().getStackTrace().length);
      if (msg instanceof Call) {
        taken.add(((Call) msg).frame);
      } else {
        ByteBuf frame = (ByteBuf) msg;
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        frame.release();
        taken.add(bytes);
      }
      if (askAgainAtOnce) {
        source.next();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      failed.add(cause);
    }
  }

  private static byte[] frame(byte[] payload) {
    return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
  }

  private static ByteBuf bytes(byte[]... parts) {
    return Unpooled.wrappedBuffer(parts);
  }

  @Test
  void aFrameIsTakenOnlyWhenAskedForAndItsHeaderCheckedWhenItsTurnComes() {
    FrameCodec codec = new FrameCodec(server);
    Taker taker = new Taker();
    EmbeddedChannel channel = new EmbeddedChannel(codec, taker);
    byte[] first = frame(new byte[] {1, 2, 3});
    byte[] overLimit = ByteBuffer.allocate(4).putInt(MAX_FRAME + 1).array();
    channel.writeInbound(bytes(first, overLimit));
    assertEquals(0, taker.taken.size(), "nothing is taken unasked");
    assertTrue(channel.config().isAutoRead(), "nothing is being worked on: reads go on");

    codec.next();
    assertEquals(1, taker.taken.size());
    assertArrayEquals(first, taker.taken.get(0));
    assertEquals(List.of(), taker.failed, "the header behind the frame being worked on is not checked yet");
    assertFalse(channel.config().isAutoRead(), "a header over the limit waits: nothing more is read");

    codec.next();
    assertEquals(1, taker.failed.size());
    assertTrue(taker.failed.get(0) instanceof TTransportException, taker.failed.get(0).toString());
    assertTrue(taker.failed.get(0).getMessage().contains("securethrift.limit.max.frame.size"),
        taker.failed.get(0).getMessage());
    channel.finishAndReleaseAll();
  }

  @Test
  void readsStopWhenAWholeFrameOrAReadAheadWaitsAndGoOnWhenItIsAskedFor() {
    FrameCodec codec = new FrameCodec(server);
    Taker taker = new Taker();
    EmbeddedChannel channel = new EmbeddedChannel(codec, taker);
    codec.next();
    channel.writeInbound(bytes(frame(new byte[10])));
    assertEquals(1, taker.taken.size());

    // Worked on: the next frame is read while less than the read-ahead of it is here...
    int large = 512 * 1024;
    channel.writeInbound(bytes(ByteBuffer.allocate(4).putInt(large).array(), new byte[1024]));
    assertTrue(channel.config().isAutoRead());
    // ...and no further once 64 KiB of it are.
    channel.writeInbound(bytes(new byte[63 * 1024]));
    assertFalse(channel.config().isAutoRead());

    // Asked for and not whole: reads go on until it is.
    codec.next();
    assertTrue(channel.config().isAutoRead());
    assertEquals(1, taker.taken.size());
    channel.writeInbound(bytes(new byte[large - 64 * 1024]));
    assertEquals(2, taker.taken.size());
    assertEquals(4 + large, taker.taken.get(1).length);
    // A whole frame behind the one worked on stops reads as well, until a frame is asked for and none is here.
    channel.writeInbound(bytes(frame(new byte[1])));
    assertFalse(channel.config().isAutoRead());
    codec.next();
    assertEquals(3, taker.taken.size());
    assertFalse(channel.config().isAutoRead());
    codec.next();
    assertTrue(channel.config().isAutoRead());
    channel.finishAndReleaseAll();
  }

  /** As when calls run on the event loop: each frame answered on the spot, the next asked for from inside. */
  @Test
  void framesAskedForWhileOneIsPassedOnComeFromOneLoopNotNested() {
    FrameCodec codec = new FrameCodec(server);
    Taker taker = new Taker();
    taker.source = codec;
    taker.askAgainAtOnce = true;
    EmbeddedChannel channel = new EmbeddedChannel(codec, taker);
    int frames = 500;
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < frames; i++) {
      all.writeBytes(frame(new byte[] {(byte) i}));
    }
    channel.writeInbound(bytes(all.toByteArray()));
    codec.next();
    assertEquals(frames, taker.taken.size());
    for (int i = 0; i < frames; i++) {
      assertEquals((byte) i, taker.taken.get(i)[4]);
    }
    int deepest = taker.stackDepths.stream().mapToInt(Integer::intValue).max().orElseThrow();
    int shallowest = taker.stackDepths.stream().mapToInt(Integer::intValue).min().orElseThrow();
    assertTrue(deepest - shallowest < 10, shallowest + " to " + deepest + " frames");
    channel.finishAndReleaseAll();
  }

  /** Holds a close back, as an SslHandler does until its close_notify is sent: the channel stays open meanwhile. */
  private static final class CloseHeldBack extends ChannelOutboundHandlerAdapter {
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
      // Never passed on: the test ends with the channel still open.
    }
  }

  @Test
  void nothingIsTakenOnceAHandlerDecidedToClose() {
    FrameCodec codec = new FrameCodec(server);
    Taker taker = new Taker();
    EmbeddedChannel channel = new EmbeddedChannel(new CloseHeldBack(), codec, taker);
    codec.next();
    Closing.close(channel);
    assertTrue(channel.isOpen());
    channel.writeInbound(bytes(frame(new byte[] {1})));
    assertEquals(0, taker.taken.size());
    channel.finishAndReleaseAll();
  }

  /** A SASL data codec at {@code auth}: tokens are the plain bytes, replies go out in chunks of {@code chunk}. */
  private static final class AuthCodec implements SaslDataCodec {
    final int chunk;
    int disposed;

    AuthCodec(int chunk) {
      this.chunk = chunk;
    }

    @Override
    public PeerIdentity identity() {
      return factory.tcpIdentity(new InetSocketAddress("127.0.0.1", 1));
    }

    @Override
    public boolean wraps() {
      return false;
    }

    @Override
    public int chunkSize() {
      return chunk;
    }

    @Override
    public byte[] unwrap(byte[] payload, int length) {
      return Arrays.copyOf(payload, length);
    }

    @Override
    public byte[] wrap(byte[] plain, int offset, int length) {
      throw new UnsupportedOperationException("auth does not wrap");
    }

    @Override
    public byte[] takeReply() {
      return null;
    }

    @Override
    public void dispose() {
      disposed++;
    }
  }

  /** An echo call in the binary protocol, unframed. */
  private static byte[] echoCall(int size) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(size + 64);
    new EchoService.Client(new TBinaryProtocol(buffer)).send_echo(ByteBuffer.allocate(size));
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  @Test
  void saslTokensAreAStreamCutIntoCallsOneEachTimeOneIsAskedFor() throws Exception {
    byte[] m1 = echoCall(10);
    byte[] m2 = echoCall(300);
    byte[] m3 = echoCall(5);
    int half = m2.length / 2;
    // A token with the first call and half the second, another with the rest of it and the third.
    byte[] token1 = ByteBuffer.allocate(m1.length + half).put(m1).put(m2, 0, half).array();
    byte[] token2 = ByteBuffer.allocate(m2.length - half + m3.length).put(m2, half, m2.length - half).put(m3).array();
    FrameCodec codec = new FrameCodec(server);
    AuthCodec auth = new AuthCodec(10);
    SaslData sasl = new SaslData(server, auth, codec);
    Taker taker = new Taker();
    EmbeddedChannel channel = new EmbeddedChannel(codec, sasl, taker);

    sasl.next();
    channel.writeInbound(bytes(frame(token1), frame(token2)));
    assertEquals(1, taker.taken.size());
    assertArrayEquals(frame(m1), taker.taken.get(0), "a call framed for the framed transport");
    sasl.next();
    assertArrayEquals(frame(m2), taker.taken.get(1), "a call over two tokens");
    sasl.next();
    assertArrayEquals(frame(m3), taker.taken.get(2));

    // The reply of 25 bytes at a chunk size of 10: three frames, each with its length first.
    byte[] reply = frame(new byte[25]);
    List<byte[]> frames = sasl.frames(reply);
    assertEquals(List.of(4, 10, 4, 10, 4, 5), frames.stream().map(f -> f.length).collect(Collectors.toList()));
    assertArrayEquals(new byte[] {0, 0, 0, 5}, frames.get(4));
    assertEquals(List.of(), sasl.frames(new byte[0]), "a one-way call has no reply");

    // The keys outlive the connection while its call runs, and are released once, when it ends.
    channel.close();
    assertEquals(0, auth.disposed);
    sasl.callEnded();
    assertEquals(1, auth.disposed);
    channel.finishAndReleaseAll();
    assertEquals(1, auth.disposed);
  }

  @Test
  void saslCallsAskedForWhileOneIsPassedOnComeFromOneLoopNotNested() throws Exception {
    FrameCodec codec = new FrameCodec(server);
    SaslData sasl = new SaslData(server, new AuthCodec(100), codec);
    Taker taker = new Taker();
    taker.source = sasl;
    taker.askAgainAtOnce = true;
    EmbeddedChannel channel = new EmbeddedChannel(codec, sasl, taker);
    int calls = 300;
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    for (int i = 0; i < calls; i++) {
      stream.writeBytes(echoCall(i % 50 == 0 ? 2500 : i % 7));
    }
    // Tokens of 1,000 bytes: dozens of small calls in one, and a large one over several.
    byte[] plain = stream.toByteArray();
    ByteArrayOutputStream tokens = new ByteArrayOutputStream();
    for (int offset = 0; offset < plain.length; offset += 1000) {
      tokens.writeBytes(frame(Arrays.copyOfRange(plain, offset, Math.min(plain.length, offset + 1000))));
    }
    channel.writeInbound(bytes(tokens.toByteArray()));
    sasl.next();
    assertEquals(calls, taker.taken.size());
    int deepest = taker.stackDepths.stream().mapToInt(Integer::intValue).max().orElseThrow();
    int shallowest = taker.stackDepths.stream().mapToInt(Integer::intValue).min().orElseThrow();
    assertTrue(deepest - shallowest < 20, shallowest + " to " + deepest + " frames");
    channel.finishAndReleaseAll();
  }
}
