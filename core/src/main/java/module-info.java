/**
 * securethrift's configuration, transport factories and plain framed TCP; TLS and SASL plug in as
 * {@link io.securethrift.core.spi.LayerProvider}s of their own modules, found with {@link java.util.ServiceLoader}.
 * {@code io.securethrift.core.internal} is exported only to securethrift's own modules (accumulo's is automatic, by
 * its {@code Automatic-Module-Name}): it is not API.
 */
// "module": the qualified export names modules compiled after this one, which javac cannot find yet.
// "requires-automatic", "requires-transitive-automatic": libthrift's types are core's API, and libthrift has only an
// Automatic-Module-Name (0.17 and 0.25 alike).
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module io.securethrift.core {
  // TTransport, TProtocol and TProcessor are in core's signatures.
  requires transitive org.apache.thrift;
  requires org.slf4j;
  // The servers' handshake counters are JMX beans.
  requires java.management;

  exports io.securethrift.core;
  exports io.securethrift.core.audit;
  exports io.securethrift.core.identity;
  exports io.securethrift.core.spi;
  exports io.securethrift.core.transport;
  exports io.securethrift.core.internal to
      io.securethrift.tls,
      io.securethrift.sasl,
      io.securethrift.netty,
      io.securethrift.accumulo;

  uses io.securethrift.core.spi.LayerProvider;
  uses io.securethrift.core.spi.DropIn;
  uses io.securethrift.core.spi.ConfigFileReader;
  uses io.securethrift.core.spi.TlsEngineProvider;

  // jsse needs no module, so core contributes it: auto always has an engine.
  provides io.securethrift.core.spi.TlsEngineProvider with io.securethrift.core.internal.JsseEngine;
}
