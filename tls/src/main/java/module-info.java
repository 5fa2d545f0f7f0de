/**
 * TLS on JSSE, Conscrypt or Netty's OpenSSL engine: core finds it as a {@link io.securethrift.core.spi.LayerProvider}.
 * PEM stores need BouncyCastle, an optional dependency, so required {@code static}: on the module path, resolve it too
 * ({@code --add-modules org.bouncycastle.pkix}), or tls does not read it; the same holds for Netty and engine
 * {@code openssl} ({@code --add-modules io.netty.handler}).
 */
// "requires-automatic": Conscrypt has only an Automatic-Module-Name, which is stable. "module": the qualified export
// names modules compiled after this one, which javac cannot find yet.
@SuppressWarnings({"module", "requires-automatic"})
module io.securethrift.tls {
  requires transitive io.securethrift.core;
  requires org.conscrypt;
  requires org.slf4j;
  // LdapName: PrincipalMapper reads a client certificate's subject name.
  requires java.naming;
  requires static org.bouncycastle.pkix;
  requires static org.bouncycastle.provider;
  // Engine openssl only: optional, the user's to add with netty-tcnative.
  requires static io.netty.buffer;
  requires static io.netty.common;
  requires static io.netty.handler;

  exports io.securethrift.tls;
  // The one Conscrypt provider per JVM, for securethrift's own modules only (theirs are automatic module names).
  exports io.securethrift.tls.internal to
      io.securethrift.zookeeper,
      io.securethrift.accumulo;

  provides io.securethrift.core.spi.LayerProvider with io.securethrift.tls.TlsLayerProvider;
  provides io.securethrift.core.spi.TlsEngineProvider with
      io.securethrift.tls.internal.ConscryptEngine,
      io.securethrift.tls.internal.NettyOpenSslEngine;
}
