package io.securethrift.sasl;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslSettings;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslServerFactory;

/**
 * What securethrift's SASL transports do differently for one mechanism, in one place: where its implementation
 * comes from, which properties and credentials it is created with, what its exchange is checked for beyond what the
 * mechanism checks itself, and whom it authenticates. One instance per {@link SaslMechanism}; the transports ask it
 * instead of testing which mechanism they run.
 */
abstract class MechanismSupport {
  /** Kerberos through securethrift's own mechanism ({@link GssapiFactory}). */
  static final MechanismSupport GSSAPI = new Gssapi();
  /** Delegation tokens through the JDK's DIGEST-MD5. */
  static final MechanismSupport DIGEST_MD5 = new DigestMd5();
  private static final Map<String, MechanismSupport> BY_NAME = Stream.of(GSSAPI, DIGEST_MD5)
      .collect(Collectors.toUnmodifiableMap(s -> s.mechanism().mechanismName(), Function.identity()));

  /** The support of {@code mechanism}. */
  static MechanismSupport of(SaslMechanism mechanism) {
    return BY_NAME.get(mechanism.mechanismName());
  }

  /** The support of the mechanism named {@code name} on the wire, if securethrift has one. */
  static Optional<MechanismSupport> named(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  abstract SaslMechanism mechanism();

  /** The name a client sends in START and a server looks up. */
  final String name() {
    return mechanism().mechanismName();
  }

  /** The mechanism's name, as messages quote it. */
  @Override
  public final String toString() {
    return name();
  }

  /** This JVM's client implementation, or null when it has none. */
  abstract SaslClientFactory clientFactory();

  /** This JVM's server implementation, or null when it has none. */
  abstract SaslServerFactory serverFactory();

  /** The SASL properties both sides create the mechanism with. */
  abstract Map<String, Object> properties(SaslSettings settings);

  /** The client's callbacks, or null when its credentials are a Kerberos login instead. */
  abstract CallbackHandler clientCallbacks(SaslSettings settings);

  /** Whether the mechanism's credentials are a Kerberos login (a keytab's, or else the caller's). */
  abstract boolean kerberos();

  /**
   * Whether the server's security-layer offer is protected by the mechanism: DIGEST-MD5's travels in the clear in its
   * first challenge, so a man in the middle can strike all but the weakest level a side lists.
   */
  abstract boolean offerProtected();

  /** Whether {@code challenge}, the server's challenge after {@code earlier} others, carries its layer offer. */
  abstract boolean isOffer(byte[] challenge, int earlier);

  /**
   * A client's check of the server's first challenge before answering it, beyond the mechanism's own: why it is
   * refused, if it is.
   */
  Optional<String> refuseOffer(byte[] challenge, List<QualityOfProtection> accepted, CipherStrength minimum) {
    return Optional.empty();
  }

  /** A server's layer offer as it goes to the client: what the mechanism wrote, less what this server refuses. */
  byte[] serverOffer(byte[] challenge, CipherStrength minimum) {
    return challenge;
  }

  /**
   * The {@code auth-conf} cipher a complete exchange settled, from the client's message that chose it; null when the
   * mechanism has no cipher securethrift checks (GSSAPI's is Kerberos's, or AES-GCM).
   */
  DigestCiphers cipher(byte[] choice, QualityOfProtection qop) {
    return null;
  }

  /** The name a server records for the client that authenticated as {@code authorizationId}. */
  String principal(String authorizationId, DelegationTokenSecrets secrets) {
    return authorizationId;
  }

  /**
   * Whether a wrapped frame of {@code frameLength} bytes that unwrapped to nothing was altered: the JDK's DIGEST-MD5
   * returns nothing for a token whose MAC fails (RFC 2831 says to discard it) instead of throwing.
   */
  boolean emptyUnwrapIsForgery(int frameLength) {
    return false;
  }

  private static final class Gssapi extends MechanismSupport {
    @Override
    SaslMechanism mechanism() {
      return SaslMechanism.GSSAPI;
    }

    @Override
    SaslClientFactory clientFactory() {
      return GssapiFactory.INSTANCE;
    }

    @Override
    SaslServerFactory serverFactory() {
      return GssapiFactory.INSTANCE;
    }

    /** What securethrift's GSSAPI mechanism takes from the settings: the levels, the privacy and its cipher. */
    @Override
    Map<String, Object> properties(SaslSettings settings) {
      Map<String, Object> props = new HashMap<>();
      props.put(Sasl.QOP, QualityOfProtection.toSaslProperty(settings.qop()));
      props.put(GssLayer.PRIVACY, settings.privacy().token());
      settings.privacyProvider().ifPresent(p -> props.put(GssapiProperties.CIPHER_PROVIDER, p));
      return Map.copyOf(props);
    }

    @Override
    CallbackHandler clientCallbacks(SaslSettings settings) {
      return null;
    }

    @Override
    boolean kerberos() {
      return true;
    }

    @Override
    boolean offerProtected() {
      return true;
    }

    /** RFC 4752: the offer is the server's one wrap token. */
    @Override
    boolean isOffer(byte[] challenge, int earlier) {
      return GssTokens.isWrapToken(challenge);
    }
  }

  private static final class DigestMd5 extends MechanismSupport {
    /**
     * The longest token an empty message makes: 8 bytes of 3DES padding, a 10-byte MAC, the 2-byte message type and
     * the 4-byte sequence number.
     */
    private static final int EMPTY_TOKEN = 24;

    @Override
    SaslMechanism mechanism() {
      return SaslMechanism.DIGEST_MD5;
    }

    @Override
    SaslClientFactory clientFactory() {
      return SaslFactories.lookUpClient(name());
    }

    @Override
    SaslServerFactory serverFactory() {
      return SaslFactories.lookUpServer(name());
    }

    @Override
    Map<String, Object> properties(SaslSettings settings) {
      Map<String, Object> properties = new HashMap<>(DigestCiphers.clientCipherProperty(settings.digestMinStrength()));
      properties.put(Sasl.QOP, QualityOfProtection.toSaslProperty(settings.qop()));
      properties.put(Sasl.STRENGTH, DigestCiphers.strengthProperty(settings.digestMinStrength()));
      return Map.copyOf(properties);
    }

    @Override
    CallbackHandler clientCallbacks(SaslSettings settings) {
      DelegationToken token = settings.delegationToken().orElseThrow(() -> new ConfigException(
          ConfigProperty.SASL_MECHANISM.key(), "DIGEST-MD5 clients need a delegation token"
              + " (SecurityConfig.Builder.delegationToken)"));
      return new DigestClientCallbacks(token);
    }

    @Override
    boolean kerberos() {
      return false;
    }

    @Override
    boolean offerProtected() {
      return false;
    }

    /** The first challenge lists the levels and ciphers. */
    @Override
    boolean isOffer(byte[] challenge, int earlier) {
      return earlier == 0;
    }

    @Override
    Optional<String> refuseOffer(byte[] challenge, List<QualityOfProtection> accepted, CipherStrength minimum) {
      Optional<List<QualityOfProtection>> offer = QopLists.digestOffer(challenge);
      if (offer.isEmpty()) {
        return Optional.empty();
      }
      Optional<QualityOfProtection> chosen = accepted.stream().filter(offer.get()::contains).findFirst();
      if (chosen.isEmpty()) {
        return Optional.of(QopLists.noCommonLevel(accepted, QopLists.describe(offer.get())));
      }
      return chosen.get() == QualityOfProtection.AUTH_CONF ? DigestCiphers.checkOffer(challenge, minimum)
          : Optional.empty();
    }

    @Override
    byte[] serverOffer(byte[] challenge, CipherStrength minimum) {
      return DigestCiphers.restrictOffer(challenge, minimum);
    }

    @Override
    DigestCiphers cipher(byte[] choice, QualityOfProtection qop) {
      return qop == QualityOfProtection.AUTH_CONF ? DigestCiphers.negotiated(choice) : null;
    }

    /** The token's owner when the secrets can tell it, else the Base64 token identifier the client presented. */
    @Override
    String principal(String authorizationId, DelegationTokenSecrets secrets) {
      return secrets.ownerOf(Base64.getDecoder().decode(authorizationId)).orElse(authorizationId);
    }

    @Override
    boolean emptyUnwrapIsForgery(int frameLength) {
      return frameLength > EMPTY_TOKEN;
    }
  }
}
