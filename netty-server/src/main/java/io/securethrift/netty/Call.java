package io.securethrift.netty;

import io.securethrift.core.identity.PeerIdentity;
import java.util.List;
import org.apache.thrift.TException;

/**
 * One whole Thrift message for {@link CallDispatcher} to run, framed as core's framed transport reads it (a 4-byte
 * length first), with the peer that sent it and the way its reply goes out.
 */
final class Call {
  /** How a call's reply goes out on the wire. */
  interface Replies {
    /** Thrift's framing: the reply goes out as the framed transport wrote it. */
    Replies AS_WRITTEN = new Replies() {
      @Override
      public List<byte[]> frames(byte[] framed) {
        return framed.length == 0 ? List.of() : List.of(framed);
      }

      @Override
      public void callEnded() {
        // Holds nothing.
      }
    };

    /**
     * The wire frames for what the framed transport wrote; none when it wrote nothing (a one-way call). Runs on
     * whatever thread ran the call, in call order, one call at a time.
     */
    List<byte[]> frames(byte[] framed) throws TException;

    /** The call is over, its reply written or its connection closed; on the event loop. */
    void callEnded();
  }

  final byte[] frame;
  final PeerIdentity caller;
  final Replies replies;

  Call(byte[] frame, PeerIdentity caller, Replies replies) {
    this.frame = frame;
    this.caller = caller;
    this.replies = replies;
  }
}
