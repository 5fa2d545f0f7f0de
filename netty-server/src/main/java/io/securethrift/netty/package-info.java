/**
 * {@link io.securethrift.netty.NettyThriftServer}: a non-blocking Thrift server for every security mode, with
 * admission limits, built as a Netty pipeline; everything else here is its parts and package-private.
 */
package io.securethrift.netty;
