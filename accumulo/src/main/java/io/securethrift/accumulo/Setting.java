package io.securethrift.accumulo;

import io.securethrift.core.ConfigProperty;
import java.util.Optional;

/**
 * The security settings Accumulo's files express, independent of how a file version spells them. Each names the
 * securethrift property it becomes, so that a {@code securethrift.*} key in the same file cannot quietly override it.
 */
enum Setting {
  SSL_ENABLED(ConfigProperty.MODE),
  CLIENT_AUTH(ConfigProperty.TLS_CLIENT_AUTH),
  USE_JSSE(null),
  KEYSTORE_PATH(ConfigProperty.TLS_KEYSTORE_PATH),
  KEYSTORE_PASSWORD(ConfigProperty.TLS_KEYSTORE_PASSWORD),
  KEYSTORE_TYPE(ConfigProperty.TLS_KEYSTORE_TYPE),
  TRUSTSTORE_PATH(ConfigProperty.TLS_TRUSTSTORE_PATH),
  TRUSTSTORE_PASSWORD(ConfigProperty.TLS_TRUSTSTORE_PASSWORD),
  TRUSTSTORE_TYPE(ConfigProperty.TLS_TRUSTSTORE_TYPE),
  CLIENT_PROTOCOL(ConfigProperty.TLS_PROTOCOLS),
  SERVER_PROTOCOLS(ConfigProperty.TLS_PROTOCOLS),
  CIPHER_SUITES(ConfigProperty.TLS_CIPHER_SUITES),
  SASL_ENABLED(ConfigProperty.MODE),
  QOP(ConfigProperty.SASL_QOP),
  SERVER_PRIMARY(ConfigProperty.SASL_SERVER_PRIMARY),
  USER_IMPERSONATION(ConfigProperty.SASL_USER_IMPERSONATION),
  HOST_IMPERSONATION(ConfigProperty.SASL_HOST_IMPERSONATION),
  AUTH_TYPE(null),
  KERBEROS_PRINCIPAL(ConfigProperty.SASL_KERBEROS_PRINCIPAL),
  KERBEROS_KEYTAB(ConfigProperty.SASL_KERBEROS_KEYTAB),
  RENEWAL_PERIOD(ConfigProperty.SASL_KERBEROS_RENEWAL_PERIOD),
  RPC_TIMEOUT(ConfigProperty.TIMEOUT_READ),
  INSTANCE_SECRET(null);

  private final ConfigProperty target;

  Setting(ConfigProperty target) {
    this.target = target;
  }

  /** The securethrift property this setting determines, if any. */
  Optional<ConfigProperty> target() {
    return Optional.ofNullable(target);
  }
}
