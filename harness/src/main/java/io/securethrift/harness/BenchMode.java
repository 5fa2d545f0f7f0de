package io.securethrift.harness;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A security mode as every benchmark names it: securethrift's {@link SecurityMode}, for TLS the engine and protocol
 * version, for SASL the quality of protection and where the security layer comes from. One grammar for every
 * benchmark and result file:
 *
 * <pre>
 *   none
 *   tls[12|13][-jsse|-conscrypt|-openssl]        (no engine: the benchmark's default engine)
 *   sasl-auth|sasl-auth-int|sasl-auth-conf[-gcm|-gcm-conscrypt|-gcm-accp|-provider|-libthrift]
 *   sasl-over-tls
 * </pre>
 *
 * <p>Older spellings are accepted on input and reported under the canonical name: {@code plain} for {@code none},
 * {@code ssl} for {@code tls} (Accumulo's documentation says SSL), and a bare quality of protection for its SASL
 * mode ({@code auth-conf-gcm} is {@code sasl-auth-conf-gcm}). Which modes a benchmark runs is its {@link ModeSet}.
 */
public final class BenchMode {
  /** Where a SASL mode's security layer and transports come from. */
  public enum SaslLayer {
    /** securethrift's SASL transports with the Kerberos (GSS) security layer. */
    GSS(""),
    /** securethrift's AES-GCM privacy ({@code securethrift.sasl.privacy=aes-gcm}) on the JDK's cipher. */
    AES_GCM("gcm"),
    /** As {@link #AES_GCM}, with Conscrypt's cipher. */
    AES_GCM_CONSCRYPT("gcm-conscrypt"),
    /** As {@link #AES_GCM}, with the Amazon Corretto Crypto Provider's cipher. */
    AES_GCM_ACCP("gcm-accp"),
    /** libthrift's own SASL transports with securethrift's SASL provider installed: unmodified Accumulo's path. */
    PROVIDER("provider"),
    /** libthrift's own SASL transports: what libthrift itself costs, told apart from the security layer. */
    LIBTHRIFT("libthrift");

    private final String suffix;

    SaslLayer(String suffix) {
      this.suffix = suffix;
    }

    /**
     * Whether the security layer is securethrift's AES-GCM: configured, or negotiated by the provider (which has the
     * {@link #PROVIDER} layer at auth-conf only).
     */
    public boolean aesGcm() {
      return this != GSS && this != LIBTHRIFT;
    }

    /** Whether the connection runs on libthrift's SASL transports rather than securethrift's. */
    public boolean onLibthrift() {
      return this == PROVIDER || this == LIBTHRIFT;
    }
  }

  /** How the grammar reads, for error messages. */
  public static final String GRAMMAR = "none, tls[12|13][-jsse|-conscrypt|-openssl], "
      + "sasl-auth|sasl-auth-int|sasl-auth-conf[-gcm|-gcm-conscrypt|-gcm-accp|-provider|-libthrift], sasl-over-tls";

  private static final Pattern TLS = Pattern.compile("tls(12|13)?(?:-(jsse|conscrypt|openssl))?");
  private static final Pattern SASL =
      Pattern.compile("sasl-(auth-conf|auth-int|auth)(?:-(gcm|gcm-conscrypt|gcm-accp|provider|libthrift))?");

  private final SecurityMode security;
  private final TlsEngine engine;
  private final String tlsVersion;
  private final QualityOfProtection qop;
  private final SaslLayer layer;

  private BenchMode(SecurityMode security, TlsEngine engine, String tlsVersion, QualityOfProtection qop,
      SaslLayer layer) {
    this.security = security;
    this.engine = engine;
    this.tlsVersion = tlsVersion;
    this.qop = qop;
    this.layer = layer;
  }

  /**
   * Reads one mode in the canonical grammar or an older spelling.
   *
   * @param option the option or field the text came from, named in the error
   * @throws IllegalArgumentException (a {@code ConfigException} naming {@code option}) for text outside the grammar
   */
  public static BenchMode parse(String option, String text) {
    String name = unalias(text.trim().toLowerCase(Locale.ROOT));
    if (name.equals("none")) {
      return new BenchMode(SecurityMode.NONE, null, null, null, null);
    }
    if (name.equals("sasl-over-tls")) {
      return new BenchMode(SecurityMode.SASL_OVER_TLS, null, null, QualityOfProtection.AUTH, SaslLayer.GSS);
    }
    Matcher tls = TLS.matcher(name);
    if (tls.matches()) {
      // The grammar names the engines; whether one runs here is the configuration's to check when it is built.
      TlsEngine engine = tls.group(2) == null ? null : TlsEngine.of(tls.group(2));
      return new BenchMode(SecurityMode.TLS, engine, tls.group(1) == null ? null : "TLSv1." + tls.group(1).charAt(1),
          null, null);
    }
    Matcher sasl = SASL.matcher(name);
    if (sasl.matches()) {
      QualityOfProtection qop = QualityOfProtection.parse(option, sasl.group(1));
      SaslLayer layer = layer(sasl.group(2));
      if (layer != SaslLayer.GSS && layer != SaslLayer.LIBTHRIFT && qop != QualityOfProtection.AUTH_CONF) {
        throw new ConfigException(option, "'" + text + "': the " + layer.suffix
            + " security layer exists at auth-conf only; modes are " + GRAMMAR);
      }
      return new BenchMode(SecurityMode.SASL, null, null, qop, layer);
    }
    throw new ConfigException(option, "'" + text + "' is not a mode; modes are " + GRAMMAR
        + " (older spellings: plain, ssl-..., auth...)");
  }

  private static String unalias(String name) {
    if (name.equals("plain")) {
      return "none";
    }
    if (name.startsWith("ssl")) {
      return "tls" + name.substring(3);
    }
    return name.startsWith("auth") ? "sasl-" + name : name;
  }

  private static SaslLayer layer(String suffix) {
    for (SaslLayer layer : SaslLayer.values()) {
      if (layer.suffix.equals(suffix == null ? "" : suffix)) {
        return layer;
      }
    }
    throw new IllegalStateException("the grammar admits a layer with no constant: " + suffix);
  }

  /** This mode on {@code engine} if it names none (a TLS mode written {@code tls}); otherwise this mode. */
  public BenchMode onDefaultEngine(TlsEngine engine) {
    return security == SecurityMode.TLS && this.engine == null
        ? new BenchMode(security, Objects.requireNonNull(engine, "engine"), tlsVersion, qop, layer) : this;
  }

  public SecurityMode security() {
    return security;
  }

  public boolean tls() {
    return security == SecurityMode.TLS;
  }

  public boolean sasl() {
    return security == SecurityMode.SASL || security == SecurityMode.SASL_OVER_TLS;
  }

  /** Whether this is a SASL mode on libthrift's own SASL transports ({@link SaslLayer#onLibthrift()}). */
  public boolean onLibthrift() {
    return sasl() && layer.onLibthrift();
  }

  /** Whether this is a SASL mode whose connections must settle on AES-GCM privacy ({@link SaslLayer#aesGcm()}). */
  public boolean aesGcm() {
    return sasl() && layer.aesGcm();
  }

  /** A TLS mode's engine; empty when the mode names none (the benchmark's default) or is not a TLS mode. */
  public Optional<TlsEngine> engine() {
    return Optional.ofNullable(engine);
  }

  /** The one TLS version a TLS mode asks for ({@code TLSv1.2}, {@code TLSv1.3}); empty for the newest both have. */
  public Optional<String> tlsVersion() {
    return Optional.ofNullable(tlsVersion);
  }

  /** A SASL mode's quality of protection ({@code auth} for {@code sasl-over-tls}). */
  public QualityOfProtection qop() {
    if (qop == null) {
      throw new IllegalStateException(this + " is not a SASL mode");
    }
    return qop;
  }

  /** A SASL mode's security layer. */
  public SaslLayer layer() {
    if (layer == null) {
      throw new IllegalStateException(this + " is not a SASL mode");
    }
    return layer;
  }

  /** The canonical name. */
  public String name() {
    switch (security) {
      case NONE:
        return "none";
      case TLS:
        return "tls" + (tlsVersion == null ? "" : tlsVersion.substring(4).replace(".", ""))
            + (engine == null ? "" : "-" + engine.token());
      case SASL_OVER_TLS:
        return "sasl-over-tls";
      default:
        return "sasl-" + qop.token() + (layer.suffix.isEmpty() ? "" : "-" + layer.suffix);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BenchMode && ((BenchMode) o).name().equals(name());
  }

  @Override
  public int hashCode() {
    return name().hashCode();
  }

  @Override
  public String toString() {
    return name();
  }
}
