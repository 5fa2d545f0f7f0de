/**
 * {@link io.securethrift.netty.NettyThriftServer}, a non-blocking Thrift server on Netty for every securethrift mode.
 * Netty stays out of its API; TLS and SASL come from their modules, as for the blocking server.
 */
@SuppressWarnings("requires-automatic") // Netty 4.1's jars have only Automatic-Module-Names, which are stable
module io.securethrift.netty {
  requires transitive io.securethrift.core;
  requires org.slf4j;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;

  exports io.securethrift.netty;
}
