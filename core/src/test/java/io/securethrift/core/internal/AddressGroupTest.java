package io.securethrift.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** How remote addresses are grouped for the per-address limits. */
class AddressGroupTest {
  @Test
  void anIpv6HostCountsAsItsPrefix() throws Exception {
    InetAddress a = InetAddress.getByName("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    InetAddress b = InetAddress.getByName("2001:db8:1:2::1");
    assertEquals(ConnectionRate.group(a, 64), ConnectionRate.group(b, 64));
    assertEquals(InetAddress.getByName("2001:db8:1:2::"), ConnectionRate.group(a, 64));
    assertEquals(InetAddress.getByName("2001:db8::"), ConnectionRate.group(a, 32));
    assertNotEquals(ConnectionRate.group(a, 128), ConnectionRate.group(b, 128),
        "a /128 prefix counts single addresses");
    assertEquals(InetAddress.getByName("2001:db8:1:2:aa80::"), ConnectionRate.group(a, 73), "a prefix within a byte");
  }

  @Test
  void anIpv4AddressCountsAlone() throws Exception {
    InetAddress a = InetAddress.getByName("192.0.2.17");
    assertEquals(a, ConnectionRate.group(a, 1));
  }
}
