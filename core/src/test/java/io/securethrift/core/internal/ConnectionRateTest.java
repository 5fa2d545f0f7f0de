package io.securethrift.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The connection rate limits' buckets, on a clock the test moves: burst, refill, the two limits and eviction. */
class ConnectionRateTest {
  private static final long MS = 1_000_000L;

  private final AtomicLong clock = new AtomicLong(123_456_789L);

  private static InetAddress address(int i) throws UnknownHostException {
    return InetAddress.getByAddress(new byte[] {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i});
  }

  /** How many of {@code n} connections from {@code from} the limits admit now. */
  private static int admitted(ConnectionRate rate, InetAddress from, int n) {
    int admitted = 0;
    for (int i = 0; i < n; i++) {
      admitted += rate.admit(from) == null ? 1 : 0;
    }
    return admitted;
  }

  @Test
  void aBurstOfOneSecondsWorthThenTheRate() throws Exception {
    ConnectionRate rate = new ConnectionRate(10, 0, clock::get);
    InetAddress a = address(1);
    assertEquals(10, admitted(rate, a, 50), "a full bucket admits one second's worth at once");
    assertEquals(ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS, rate.admit(a));
    clock.addAndGet(99 * MS);
    assertEquals(0, admitted(rate, a, 5), "no token before a tenth of a second");
    clock.addAndGet(MS);
    assertEquals(1, admitted(rate, a, 5), "one token per tenth of a second");
    clock.addAndGet(350 * MS);
    assertEquals(3, admitted(rate, a, 5));
    clock.addAndGet(60_000 * MS);
    assertEquals(10, admitted(rate, a, 50), "a long pause refills no more than the burst");
  }

  @Test
  void eachAddressHasItsOwnBucket() throws Exception {
    ConnectionRate rate = new ConnectionRate(5, 0, clock::get);
    assertEquals(5, admitted(rate, address(1), 20));
    assertEquals(5, admitted(rate, address(2), 20), "another address is not limited by the first one's flood");
  }

  @Test
  void theLimitInAllCountsOnlyWhatEachAddressWasAllowed() throws Exception {
    ConnectionRate rate = new ConnectionRate(5, 8, clock::get);
    assertEquals(5, admitted(rate, address(1), 1000), "the flood over its own limit spends nothing of the shared one");
    assertEquals(3, admitted(rate, address(2), 5));
    assertEquals(ConfigProperty.SERVER_CONNECTION_RATE_MAX, rate.admit(address(3)));
    clock.addAndGet(125 * MS);
    assertNull(rate.admit(address(3)), "the shared bucket refills at its own rate: one per 125 ms");
  }

  @Test
  void onlyTheLimitInAll() throws Exception {
    ConnectionRate rate = new ConnectionRate(0, 4, clock::get);
    assertEquals(4, admitted(rate, address(1), 10));
    assertEquals(ConfigProperty.SERVER_CONNECTION_RATE_MAX, rate.admit(address(2)));
    assertEquals(0, rate.tracked(), "no per-address buckets without a per-address limit");
  }

  @Test
  void idleAddressesAreDroppedAndTheTableIsBounded() throws Exception {
    ConnectionRate rate = new ConnectionRate(2, 0, clock::get);
    for (int i = 0; i < ConnectionRate.MAX_TRACKED; i++) {
      assertNull(rate.admit(address(i)));
    }
    assertEquals(ConnectionRate.MAX_TRACKED, rate.tracked());
    // While every tracked address connected within the last second, new addresses share one extra bucket.
    InetAddress extra = address(ConnectionRate.MAX_TRACKED);
    InetAddress another = address(ConnectionRate.MAX_TRACKED + 1);
    assertEquals(2, admitted(rate, extra, 2) + admitted(rate, another, 2), "one shared bucket of 2");
    assertEquals(ConnectionRate.MAX_TRACKED, rate.tracked(), "the table grows no more");
    // A second on, every bucket is full again: the next new address sweeps them all away.
    clock.addAndGet(1000 * MS);
    assertNull(rate.admit(another));
    assertEquals(1, rate.tracked());
  }

  @Test
  void aBusyAddressSurvivesTheSweep() throws Exception {
    ConnectionRate rate = new ConnectionRate(2, 0, clock::get);
    InetAddress busy = address(1);
    assertEquals(2, admitted(rate, busy, 2));
    clock.addAndGet(1000 * MS);
    assertEquals(2, admitted(rate, busy, 3), "refilled after a second");
    assertNull(rate.admit(address(2)), "a new address sweeps");
    assertEquals(2, rate.tracked(), "the busy address's empty bucket is kept, and refuses");
    assertEquals(ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS, rate.admit(busy));
  }

  @Test
  void offWhenBothAreZero() {
    assertNull(ConnectionRate.of(SecurityConfig.builder().build().server()));
  }

  @Test
  void aBadValueNamesTheSettingAndTheRange() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.builder()
        .set(ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS.key(), "-1").build());
    assertTrue(e.getMessage().contains("securethrift.server.connection.rate.per.address")
        && e.getMessage().contains("0 to 1000000"), e.getMessage());
  }
}
