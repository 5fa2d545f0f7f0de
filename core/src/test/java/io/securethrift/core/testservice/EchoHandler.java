package io.securethrift.core.testservice;

import io.securethrift.core.identity.PeerIdentity;
import java.nio.ByteBuffer;

/** The test service's behaviour: echo, report the caller's identity, fail on request. */
public final class EchoHandler implements EchoService.Iface {
  @Override
  public ByteBuffer echo(ByteBuffer payload) {
    return payload;
  }

  @Override
  public String whoAmI() {
    return PeerIdentity.current().map(PeerIdentity::toString).orElse("unknown");
  }

  @Override
  public void fail(String message) throws EchoFailure {
    throw new EchoFailure(message);
  }
}
