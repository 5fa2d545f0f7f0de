package io.securethrift.ingest.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * A switching connector opens with the connector last switched to, and closes every one it used, each once, even when
 * one of them fails to close.
 */
class SwitchingConnectorTest {

  /** A connector that hands out one in-memory protocol and records what happened to it. */
  private static final class Recording implements Connector {
    private final String name;
    private final List<String> log;
    private final TProtocol protocol;

    Recording(String name, List<String> log) throws TTransportException {
      this.name = name;
      this.log = log;
      this.protocol = new TCompactProtocol(new TMemoryBuffer(16));
    }

    @Override
    public TProtocol open(String host, int port) {
      log.add(name + " open " + host + ":" + port);
      return protocol;
    }

    @Override
    public void close() {
      log.add(name + " close");
      if (name.startsWith("failing")) {
        throw new IllegalStateException(name + " failed to close");
      }
    }
  }

  @Test
  void newConnectionsComeFromTheLatestConnectorAndEveryOneIsClosed() throws Exception {
    List<String> log = new ArrayList<>();
    Recording plaintext = new Recording("plaintext", log);
    Recording tls = new Recording("tls", log);
    SwitchingConnector connector = new SwitchingConnector(plaintext);
    assertSame(plaintext.protocol, connector.open("localhost", 1));
    connector.switchTo(tls);
    assertSame(tls.protocol, connector.open("localhost", 2));
    connector.close();
    assertEquals(List.of("plaintext open localhost:1", "tls open localhost:2", "plaintext close", "tls close"), log);
  }

  @Test
  void aFailedCloseStillClosesTheOthersAndIsReported() throws Exception {
    List<String> log = new ArrayList<>();
    SwitchingConnector connector = new SwitchingConnector(new Recording("failing-a", log));
    connector.switchTo(new Recording("b", log));
    connector.switchTo(new Recording("failing-c", log));
    IllegalStateException e = assertThrows(IllegalStateException.class, connector::close);
    assertEquals("failing-a failed to close", e.getMessage());
    assertEquals("failing-c failed to close", e.getSuppressed()[0].getMessage());
    assertEquals(List.of("failing-a close", "b close", "failing-c close"), log);
  }
}
