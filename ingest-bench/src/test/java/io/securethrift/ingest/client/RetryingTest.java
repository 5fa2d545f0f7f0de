package io.securethrift.ingest.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.ingest.thrift.IngestFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

class RetryingTest {
  private static final RetryPolicy QUICK = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0.5);

  @Test
  void connectionFailuresAreRetriedAndCounted() throws Exception {
    RetryCounters counters = new RetryCounters();
    AtomicInteger tries = new AtomicInteger();
    int result = new Retrying(QUICK, counters, "host:1").call("call", retry -> {
      if (tries.incrementAndGet() < 3) {
        throw new TTransportException(TTransportException.END_OF_FILE, "cut");
      }
      assertTrue(retry);
      return 7;
    });
    assertEquals(7, result);
    RetryCounters.Snapshot s = counters.snapshot();
    assertEquals(2, s.retries());
    assertTrue(s.nanosLost() > 0);
  }

  @Test
  void anAnswerFromTheServerIsNotRetried() {
    RetryCounters counters = new RetryCounters();
    AtomicInteger tries = new AtomicInteger();
    IOException e = assertThrows(IOException.class, () -> new Retrying(QUICK, counters, "host:1").call("applyBatch",
        retry -> {
          tries.incrementAndGet();
          throw new IngestFailure("write-ahead log append failed: disk full");
        }));
    assertEquals(1, tries.get());
    assertTrue(e.getMessage().startsWith("applyBatch to host:1 failed: "), e.getMessage());
    assertEquals(0, counters.snapshot().retries());
  }

  @Test
  void aServerThatStaysDownFailsTheCallNamingTriesPeerAndCause() throws Exception {
    int port;
    try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = unused.getLocalPort();
    }
    try (IngestClient client = new IngestClient(SecurityConfig.builder().build(), "127.0.0.1", port, QUICK)) {
      IOException e = assertThrows(IOException.class, client::reset);
      assertTrue(e.getMessage().startsWith("ingest service call to 127.0.0.1:" + port + " failed after 3 tries (retry"
          + " max attempts 3): cannot connect to 127.0.0.1:" + port), e.getMessage());
      assertEquals(2, client.retries().retries());
      assertEquals(0, client.retries().reconnects(), "no connection was ever opened");
    }
  }
}
