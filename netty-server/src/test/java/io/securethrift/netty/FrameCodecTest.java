package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ServerTransportFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * FrameCodec on an EmbeddedChannel, with a stand-in for the dispatcher: a frame's header is checked before anything is
 * allocated for it and when its turn comes, one message is passed at a time, reads go on while a call runs up to 64 KiB
 * of the next message, and calls answered on the spot are taken in a loop, not nested. The security paths (refusals,
 * audit, allocation under attack) are tested against real sockets in NettyServerTest and NettyFloodTest.
 */
class FrameCodecTest {
  private static final int MAX = 1 << 20;

  /** Counts the direct memory the codec's buffer takes, reallocations included. */
  private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(true);
  private ServerTransportFactory factory;
  private ServerContext server;
  private FrameCodec codec;
  private Calls calls;
  private EmbeddedChannel channel;

  /** Stands in for CallDispatcher: keeps each message, and answers it at once when told to. */
  private final class Calls extends ChannelInboundHandlerAdapter {
    final List<byte[]> messages = new ArrayList<>();
    boolean answerAtOnce;
    int minDepth = Integer.MAX_VALUE;
    int maxDepth;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      messages.add((byte[]) msg);
      int depth = new Throwable().getStackTrace().length;
      minDepth = Math.min(minDepth, depth);
      maxDepth = Math.max(maxDepth, depth);
      if (answerAtOnce) {
        codec.callEnded();
      }
    }
  }

  @BeforeEach
  void start() {
    factory = ServerTransportFactory.create(SecurityConfig.builder().mode(SecurityMode.NONE).maxFrameSize(MAX).build());
    // The codec runs no call and no negotiation: no pools.
    server = new ServerContext(factory, new EchoService.Processor<>(new EchoHandler()), new TBinaryProtocol.Factory(),
        null, true, null);
    codec = new FrameCodec(server);
    calls = new Calls();
    channel = new EmbeddedChannel(codec, calls);
    channel.config().setAllocator(alloc);
  }

  @AfterEach
  void stop() {
    channel.finishAndReleaseAll();
    assertEquals(0, alloc.metric().usedDirectMemory(), "the codec gave its buffer back");
    factory.close();
  }

  private void authenticate() {
    // An anonymous plaintext peer: no maximum age, no Kerberos ticket, so nothing ends the connection.
    PeerIdentity anonymous = TestIdentities.builder(SecurityMode.NONE, null).build();
    channel.pipeline().fireUserEventTriggered(new HandshakeGuard.Authenticated(anonymous, null, System.nanoTime()));
  }

  private static byte[] frame(int length, int fill) {
    byte[] frame = new byte[4 + length];
    Arrays.fill(frame, (byte) fill);
    Unpooled.wrappedBuffer(frame).setInt(0, length);
    return frame;
  }

  private static ByteBuf header(int declared) {
    return Unpooled.buffer(4).writeInt(declared);
  }

  private void write(byte[]... frames) {
    channel.writeInbound(Unpooled.wrappedBuffer(frames));
  }

  @Test
  void framesWaitForAuthenticationAndGoAsTheCallReadsThemHeaderIncluded() {
    byte[] first = frame(10, 1);
    write(first);
    assertTrue(calls.messages.isEmpty(), "not authenticated yet");
    authenticate();
    assertEquals(1, calls.messages.size());
    assertArrayEquals(first, calls.messages.get(0));
  }

  @Test
  void oneMessageAtATimeTheNextOnceTheCallWasAnswered() {
    authenticate();
    write(frame(10, 1), frame(20, 2), frame(0, 3));
    assertEquals(1, calls.messages.size());
    codec.callEnded();
    assertEquals(2, calls.messages.size());
    assertArrayEquals(frame(20, 2), calls.messages.get(1));
    codec.callEnded();
    assertArrayEquals(frame(0, 3), calls.messages.get(2));
    codec.callEnded();
    assertEquals(3, calls.messages.size());
  }

  @Test
  void aHeaderOverTheLimitClosesTheConnectionBeforeAnythingIsAllocatedForIt() {
    authenticate();
    channel.writeInbound(header(MAX + 1));
    assertFalse(channel.isOpen());
    assertTrue(calls.messages.isEmpty());
    assertTrue(alloc.metric().usedDirectMemory() <= ReadBuffer.MIN_BUFFER);
  }

  @Test
  void aFrameOfTheLargestLengthHoldsOnlyWhatArrived() {
    authenticate();
    channel.writeInbound(header(MAX));
    for (int i = 0; i < 1000; i++) {
      channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {7}));
    }
    assertTrue(channel.isOpen());
    assertTrue(calls.messages.isEmpty());
    assertTrue(alloc.metric().usedDirectMemory() <= 2048, String.valueOf(alloc.metric().usedDirectMemory()));
  }

  @Test
  void readsGoOnWhileACallRunsAndStopAtSixtyFourKibibytesOfTheNextMessage() {
    authenticate();
    write(frame(10, 1));
    assertEquals(1, calls.messages.size(), "its call runs");
    channel.writeInbound(header(MAX));
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[ReadBuffer.READ_AHEAD / 2]));
    assertTrue(channel.config().isAutoRead(), "part of the next message waits: reads go on");
    assertEquals(0, alloc.metric().usedDirectMemory(), "what waits behind a running call is on the heap");
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[ReadBuffer.READ_AHEAD / 2]));
    assertFalse(channel.config().isAutoRead(), "64 KiB of it wait: reads stop");
    codec.callEnded();
    assertTrue(channel.config().isAutoRead(), "its turn came: reads go on for the rest of it");
    assertEquals(1, calls.messages.size());
  }

  @Test
  void aHeaderOverTheLimitBehindARunningCallStopsReadsAndIsRefusedWhenItsTurnComes() {
    authenticate();
    write(frame(10, 1));
    channel.writeInbound(header(MAX + 1));
    assertTrue(channel.isOpen(), "the running call is answered first");
    assertFalse(channel.config().isAutoRead(), "nothing more is read behind it");
    codec.callEnded();
    assertFalse(channel.isOpen());
    assertEquals(1, calls.messages.size());
  }

  @Test
  void callsAnsweredOnTheSpotAreTakenInALoopNotNested() {
    authenticate();
    calls.answerAtOnce = true;
    byte[][] frames = new byte[2000][];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = frame(3, i);
    }
    write(frames);
    assertEquals(frames.length, calls.messages.size());
    assertArrayEquals(frames[1999], calls.messages.get(1999));
    assertTrue(calls.maxDepth - calls.minDepth <= 2, calls.minDepth + " to " + calls.maxDepth + " frames deep");
  }

  @Test
  void shutdownClosesAConnectionOnceItsCallWasAnswered() {
    authenticate();
    write(frame(10, 1), frame(10, 2));
    server.drain();
    assertTrue(channel.isOpen());
    codec.callEnded();
    assertFalse(channel.isOpen());
    assertEquals(1, calls.messages.size(), "nothing new starts");
  }
}
