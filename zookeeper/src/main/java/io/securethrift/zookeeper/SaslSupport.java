package io.securethrift.zookeeper;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslSettings;

/** Rejects SASL settings ZooKeeper cannot honour, before anything connects. */
final class SaslSupport {
  private SaslSupport() {}

  /**
   * ZooKeeper's Kerberos SASL authenticates the session and never wraps data, so a configuration that insists on
   * integrity or confidentiality would silently get neither; DIGEST-MD5 in securethrift means Accumulo delegation
   * tokens, which ZooKeeper does not know.
   */
  static void check(SaslSettings sasl) {
    if (sasl.mechanism() != SaslMechanism.GSSAPI) {
      throw new ConfigException(ConfigProperty.SASL_MECHANISM.key(), "'" + sasl.mechanism()
          + "' is not supported for ZooKeeper; use GSSAPI (Kerberos)");
    }
    if (!sasl.qop().contains(QualityOfProtection.AUTH)) {
      throw new ConfigException(ConfigProperty.SASL_QOP.key(), "'" + QualityOfProtection.toSaslProperty(sasl.qop())
          + "' cannot be honoured: ZooKeeper SASL only authenticates and never protects data; set it to auth"
          + " (securethrift's default is auth-conf), and use mode sasl-over-tls when the traffic must be protected");
    }
  }
}
