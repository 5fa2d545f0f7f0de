package io.securethrift.sasl;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import java.security.Provider;
import java.security.Security;
import java.util.List;
import java.util.Map;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;

/**
 * What a caller asks of {@link GssapiClient} or {@link GssapiServer} through the SASL properties, read as the JDK's
 * mechanism reads them: {@code javax.security.sasl.qop} (default {@code auth}) and
 * {@code javax.security.sasl.maxbuffer}
 * (default 65536). securethrift adds {@code securethrift.sasl.privacy}: {@code aes-gcm-preferred} (the default, as
 * installing the provider is the opt-in), {@code aes-gcm} or {@code gss}; absent from the properties, as it is for
 * Accumulo, Hadoop or ZooKeeper, it is read from the security property of that name (the provider's security file
 * can set it), and the provider for the AES-GCM cipher from {@link #CIPHER_PROVIDER}.
 */
final class GssapiProperties {
  /** A {@link Provider} object for AES/GCM/NoPadding; securethrift's own transports pass their configured one. */
  static final String CIPHER_PROVIDER = "securethrift.sasl.privacy.provider";
  static final int DEFAULT_MAX_BUFFER = 65536;

  final List<QualityOfProtection> qop;
  final int maxBuffer;
  final SaslPrivacy privacy;
  final Provider cipherProvider;

  private GssapiProperties(List<QualityOfProtection> qop, int maxBuffer, SaslPrivacy privacy,
      Provider cipherProvider) {
    this.qop = qop;
    this.maxBuffer = maxBuffer;
    this.privacy = privacy;
    this.cipherProvider = cipherProvider;
  }

  static GssapiProperties of(Map<String, ?> props) throws SaslException {
    Map<String, ?> p = props == null ? Map.of() : props;
    try {
      Object qop = p.get(Sasl.QOP);
      Object privacy = p.containsKey(GssLayer.PRIVACY) ? p.get(GssLayer.PRIVACY)
          : Security.getProperty(GssLayer.PRIVACY);
      Object provider = p.get(CIPHER_PROVIDER);
      return new GssapiProperties(
          QualityOfProtection.parseList(Sasl.QOP, qop == null ? "auth" : qop.toString()),
          maxBuffer(p.get(Sasl.MAX_BUFFER)),
          privacy == null ? SaslPrivacy.AES_GCM_PREFERRED : SaslPrivacy.parse(GssLayer.PRIVACY, privacy.toString()),
          provider instanceof Provider ? (Provider) provider : null).checked();
    } catch (ConfigException e) {
      throw new SaslException(e.getMessage(), e);
    }
  }

  /** Refuses {@code aes-gcm} where this runtime cannot run the AES-GCM layer's key exchange. */
  private GssapiProperties checked() throws SaslException {
    if (privacy == SaslPrivacy.AES_GCM && !GcmKeys.available()) {
      throw new SaslException(GssLayer.PRIVACY + "=aes-gcm, but this Java runtime has no X25519 (module"
          + " jdk.crypto.ec before Java 22), which its key exchange needs; add the module, or set aes-gcm-preferred");
    }
    return this;
  }

  private static int maxBuffer(Object value) throws SaslException {
    if (value == null) {
      return DEFAULT_MAX_BUFFER;
    }
    try {
      int size = Integer.parseInt(value.toString().trim());
      if (size >= 0 && size <= SecurityLayer.MAX_BUFFER_LIMIT) {
        return size;
      }
    } catch (NumberFormatException ignored) {
      // Refused below, naming the value.
    }
    throw new SaslException(Sasl.MAX_BUFFER + " is '" + value + "'; give a whole number of bytes from 0 to "
        + SecurityLayer.MAX_BUFFER_LIMIT + " (the most 3 bytes can state)");
  }

  /** Whether AES-GCM may be offered or chosen at all on this side. */
  boolean speaksAesGcm() {
    return privacy.speaksAesGcm() && qop.contains(QualityOfProtection.AUTH_CONF) && GcmKeys.available();
  }
}
