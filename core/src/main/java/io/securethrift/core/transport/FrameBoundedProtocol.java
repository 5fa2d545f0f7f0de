package io.securethrift.core.transport;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.scheme.StandardScheme;

/**
 * Reads with another protocol and holds what a message declares to the bytes its transport has received. The
 * transport already refuses strings and containers larger than the bytes behind them, but only as libthrift reports
 * them: libthrift 0.17 counts structs, STOP and VOID elements as zero bytes, so a list of two billion structs passed
 * and generated code sized an array from it. Here every element counts at least one byte, as it does on the wire, and
 * the transport is told where each message begins and ends so a framed one cannot run on into the next frame. Structs
 * and containers nest at most {@link TConfiguration#DEFAULT_RECURSION_DEPTH} deep: libthrift 0.17's
 * {@code TProtocolUtil.skip}, which skips an unknown method's arguments, recurses without a limit, so a frame of
 * nested structs from any peer ended the reading thread with a {@code StackOverflowError}.
 */
final class FrameBoundedProtocol extends TProtocolDecorator {
  private final SecuredTransport transport;
  /** Structs and containers open in the message being read. */
  private int depth;

  private FrameBoundedProtocol(TProtocol protocol, SecuredTransport transport) {
    super(protocol);
    this.transport = transport;
  }

  /**
   * {@code protocol} bounded, when it reads a secured transport with the standard scheme; otherwise as it is (the
   * tuple scheme casts the protocol to its own class, so it cannot be decorated, and keeps the transport's bounds).
   */
  static TProtocol wrap(TProtocol protocol) {
    if (protocol instanceof FrameBoundedProtocol || !(protocol.getTransport() instanceof SecuredTransport)
        || protocol.getScheme() != StandardScheme.class) {
      return protocol;
    }
    return new FrameBoundedProtocol(protocol, (SecuredTransport) protocol.getTransport());
  }

  @Override
  public TMessage readMessageBegin() throws TException {
    depth = 0;
    transport.messageBegins();
    return super.readMessageBegin();
  }

  @Override
  public void readMessageEnd() throws TException {
    super.readMessageEnd();
    transport.messageEnds();
  }

  @Override
  public TStruct readStructBegin() throws TException {
    enter();
    return super.readStructBegin();
  }

  @Override
  public void readStructEnd() throws TException {
    super.readStructEnd();
    depth--;
  }

  @Override
  public TMap readMapBegin() throws TException {
    enter();
    TMap map = super.readMapBegin();
    requireBytes(map.size, atLeastOne(map.keyType) + atLeastOne(map.valueType));
    return map;
  }

  @Override
  public TList readListBegin() throws TException {
    enter();
    TList list = super.readListBegin();
    requireBytes(list.size, atLeastOne(list.elemType));
    return list;
  }

  @Override
  public TSet readSetBegin() throws TException {
    enter();
    TSet set = super.readSetBegin();
    requireBytes(set.size, atLeastOne(set.elemType));
    return set;
  }

  @Override
  public void readMapEnd() throws TException {
    super.readMapEnd();
    depth--;
  }

  @Override
  public void readListEnd() throws TException {
    super.readListEnd();
    depth--;
  }

  @Override
  public void readSetEnd() throws TException {
    super.readSetEnd();
    depth--;
  }

  private void enter() throws TProtocolException {
    if (++depth > TConfiguration.DEFAULT_RECURSION_DEPTH) {
      throw new TProtocolException(TProtocolException.DEPTH_LIMIT, "structs and containers nested more than "
          + TConfiguration.DEFAULT_RECURSION_DEPTH + " deep");
    }
  }

  private int atLeastOne(byte type) throws TException {
    return Math.max(1, getMinSerializedSize(type));
  }

  private void requireBytes(int count, int bytesPerElement) throws TException {
    if (count > 0) {
      transport.checkReadBytesAvailable((long) count * bytesPerElement);
    }
  }
}
