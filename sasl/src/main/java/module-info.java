/**
 * Thrift SASL (GSSAPI, DIGEST-MD5): core finds it as a {@link io.securethrift.core.spi.LayerProvider}, and its SASL
 * provider as a {@link io.securethrift.core.spi.DropIn}. Kerberos runs on securethrift's own GSSAPI mechanism, on
 * {@code java.security.jgss} alone: the JDK's mechanism ({@code jdk.security.jgss}) is not required.
 */
// "requires-automatic": Kerby's jars have no module name of their own, so theirs come from the file names.
@SuppressWarnings("requires-automatic")
module io.securethrift.sasl {
  requires transitive io.securethrift.core;
  requires org.slf4j;
  requires java.security.jgss;
  requires java.security.sasl;
  // Optional (ServiceTicketEnd): on the module path, resolve it too (--add-modules kerb.crypto).
  requires static kerb.crypto;
  requires static kerb.core;

  exports io.securethrift.sasl;

  provides io.securethrift.core.spi.LayerProvider with io.securethrift.sasl.SaslLayerProvider;
  provides io.securethrift.core.spi.DropIn with io.securethrift.sasl.SaslProviderDropIn;
}
