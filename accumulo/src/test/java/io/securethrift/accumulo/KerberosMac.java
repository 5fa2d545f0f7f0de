package io.securethrift.accumulo;

import io.securethrift.accumulo.mac.KerberizedCluster;
import io.securethrift.testkit.EmbeddedKdc;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Turns a MiniAccumuloCluster into a Kerberized one against an {@link EmbeddedKdc} through the ingest backend's
 * {@link KerberizedCluster}: servers logged in as {@code accumulo/localhost}, and {@code root} as a Kerberos principal
 * with its keytab in the client file. This host's canonical name is {@code localhost}, the name Accumulo's clients put
 * in the service principal.
 */
final class KerberosMac {
  static final String SERVER_PRIMARY = "accumulo";
  static final String ROOT = "root";

  private KerberosMac() {}

  static void configure(MiniAccumuloConfigImpl config, EmbeddedKdc kdc, String qop) {
    KerberizedCluster.configure(config, kdc.servicePrincipal(SERVER_PRIMARY, EmbeddedKdc.HOST), kdc.principal(ROOT),
        kdc.krb5Conf(), qop);
  }
}
