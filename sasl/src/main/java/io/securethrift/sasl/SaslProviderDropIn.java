package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.spi.DropIn;

/**
 * The {@code sasl} drop-in: {@link SecureThriftSaslProvider} first, the JDK's GSSAPI provider left out, and
 * {@code auth-conf} on AES-GCM wherever the peer has the provider too. Used by {@link DropInSecurityFile}.
 */
public final class SaslProviderDropIn implements DropIn {
  /** The name that chooses it or leaves it out. */
  public static final String NAME = "sasl";

  /** For the service loader. */
  public SaslProviderDropIn() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void addTo(DropInSecurityFile.Builder file) {
    file.providerFirst(SecureThriftSaslProvider.class, "answers SaslClientFactory.GSSAPI and SaslServerFactory.GSSAPI"
            + " only; every other SASL mechanism and service is still the JDK's")
        .leaveOut("JdkSASL", "its only mechanism is the JDK's GSSAPI, and code that enumerates factories with"
            + " Sasl.getSaslServerFactories() (Hadoop RPC's FastSaslServerFactory) gets them in no set order, so with"
            + " both present it would pick either at random")
        .property(ConfigProperty.SASL_PRIVACY.key(), SaslPrivacy.AES_GCM_PREFERRED.token(), "how auth-conf encrypts"
            + " between two ends that both have the provider: aes-gcm-preferred (AES-GCM when the peer has it,"
            + " standard GSS wrapping otherwise), aes-gcm (refuse auth-conf without it) or gss (never)");
  }
}
