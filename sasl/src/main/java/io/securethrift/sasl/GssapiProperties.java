package io.securethrift.sasl;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslChannelBinding;
import io.securethrift.core.SaslPrivacy;
import java.security.Provider;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;

/**
 * What a caller asks of {@link GssapiClient} or {@link GssapiServer} through the SASL properties, read as the JDK's
 * mechanism reads them: {@code javax.security.sasl.qop} (default {@code auth}) and
 * {@code javax.security.sasl.maxbuffer}
 * (default 65536). securethrift adds {@code securethrift.sasl.privacy}: {@code aes-gcm-preferred} (the default, as
 * installing the provider is the opt-in), {@code aes-gcm} or {@code gss}; absent from the properties, as it is for
 * Accumulo, Hadoop or ZooKeeper, it is read from the security property of that name (the provider's security file
 * can set it), and the provider for the AES-GCM cipher from {@link #CIPHER_PROVIDER}. securethrift's own transports
 * in mode {@code sasl-over-tls} also pass {@link #CHANNEL_BINDING} and its {@link #BINDING_DATA}; without them (as
 * through {@code Sasl}) nothing is bound.
 */
final class GssapiProperties {
  /** A {@link Provider} object for AES/GCM/NoPadding; securethrift's own transports pass their configured one. */
  static final String CIPHER_PROVIDER = "securethrift.sasl.privacy.provider";
  static final int DEFAULT_MAX_BUFFER = 65536;
  /** A {@link SaslChannelBinding}: whether this side binds, and whether it refuses a peer that does not. */
  static final String CHANNEL_BINDING = ConfigProperty.SASL_CHANNEL_BINDING.key();
  /** This connection's {@link TlsServerEndPoint} binding, a byte array. */
  static final String BINDING_DATA = "securethrift.sasl.channel.binding.data";

  final List<QualityOfProtection> qop;
  final int maxBuffer;
  final SaslPrivacy privacy;
  final Provider cipherProvider;
  final SaslChannelBinding channelBinding;
  /** The binding this side sends or checks; null when it binds nothing ({@code off}, or no TLS under it). */
  final byte[] binding;

  private GssapiProperties(List<QualityOfProtection> qop, int maxBuffer, SaslPrivacy privacy,
      Provider cipherProvider, SaslChannelBinding channelBinding, byte[] binding) {
    this.qop = qop;
    this.maxBuffer = maxBuffer;
    this.privacy = privacy;
    this.cipherProvider = cipherProvider;
    this.channelBinding = channelBinding;
    this.binding = channelBinding == SaslChannelBinding.OFF ? null : binding;
  }

  static GssapiProperties of(Map<String, ?> props) throws SaslException {
    Map<String, ?> p = props == null ? Map.of() : props;
    try {
      Object qop = p.get(Sasl.QOP);
      Object privacy = p.containsKey(GssLayer.PRIVACY) ? p.get(GssLayer.PRIVACY)
          : Security.getProperty(GssLayer.PRIVACY);
      Object provider = p.get(CIPHER_PROVIDER);
      Object channelBinding = p.get(CHANNEL_BINDING);
      Object binding = p.get(BINDING_DATA);
      return new GssapiProperties(
          QualityOfProtection.parseList(Sasl.QOP, qop == null ? "auth" : qop.toString()),
          maxBuffer(p.get(Sasl.MAX_BUFFER)),
          privacy == null ? SaslPrivacy.AES_GCM_PREFERRED : SaslPrivacy.parse(GssLayer.PRIVACY, privacy.toString()),
          provider instanceof Provider ? (Provider) provider : null,
          channelBinding == null ? SaslChannelBinding.PREFER
              : SaslChannelBinding.parse(CHANNEL_BINDING, channelBinding.toString()),
          binding instanceof byte[] ? ((byte[]) binding).clone() : null).checked();
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

  /**
   * A copy of {@code properties} with this connection's channel binding: the setting, and the binding of the TLS
   * server's certificate when there is one.
   */
  static Map<String, Object> withBinding(Map<String, Object> properties, SaslChannelBinding setting,
      Optional<X509Certificate> tlsServer) {
    Map<String, Object> bound = new HashMap<>(properties);
    bound.put(CHANNEL_BINDING, setting.token());
    if (setting != SaslChannelBinding.OFF) {
      tlsServer.ifPresent(certificate -> bound.put(BINDING_DATA, TlsServerEndPoint.of(certificate)));
    }
    return bound;
  }

  /** Whether AES-GCM may be offered or chosen at all on this side. */
  boolean speaksAesGcm() {
    return privacy.speaksAesGcm() && qop.contains(QualityOfProtection.AUTH_CONF) && GcmKeys.available();
  }
}
