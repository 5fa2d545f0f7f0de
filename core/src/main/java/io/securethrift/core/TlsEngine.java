package io.securethrift.core;

import java.util.Locale;
import java.util.Objects;

/**
 * The name of a TLS engine ({@code securethrift.tls.engine}): {@code auto} or the token of an engine a module
 * contributes ({@link io.securethrift.core.spi.TlsEngineProvider}). A value, not the engine: two names are equal when
 * their tokens are. The engine a configuration runs on is {@link TlsSettings#engineProvider()}.
 *
 * <p>Formerly a closed enum: the constants remain, but {@code values()}, {@code valueOf} and
 * {@code switch} are gone: ask the engine ({@link TlsSettings#engineProvider()}) instead.
 */
public final class TlsEngine {
  /** The JDK's own provider (SunJSSE), contributed by core. */
  public static final TlsEngine JSSE = new TlsEngine("jsse");
  /** Conscrypt (BoringSSL), asked for by name and never installed as the JVM's default; the TLS module's. */
  public static final TlsEngine CONSCRYPT = new TlsEngine("conscrypt");
  /**
   * The first engine in the contributed engines' preference order that runs here (Conscrypt when its native library
   * loads, otherwise JSSE), resolved once per JVM and logged once.
   */
  public static final TlsEngine AUTO = new TlsEngine("auto");
  /**
   * Netty's OpenSSL engine (netty-tcnative, BoringSSL), contributed by the TLS module, on every securethrift TLS port
   * and ZooKeeper's client port; Netty and netty-tcnative are the user's to add.
   */
  public static final TlsEngine OPENSSL = new TlsEngine("openssl");

  private final String token;

  private TlsEngine(String token) {
    this.token = token;
  }

  /**
   * The engine named {@code token}, without checking that a module contributes it: a configuration with TLS checks
   * that when it is built.
   *
   * @throws IllegalArgumentException if the token is blank, has blanks or upper-case letters
   */
  public static TlsEngine of(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty() || !token.equals(token.trim().toLowerCase(Locale.ROOT)) || token.contains(" ")) {
      throw new IllegalArgumentException("'" + token + "' is no engine token: lower case, no blanks");
    }
    for (TlsEngine known : new TlsEngine[] {JSSE, CONSCRYPT, AUTO, OPENSSL}) {
      if (known.token.equals(token)) {
        return known;
      }
    }
    return new TlsEngine(token);
  }

  /**
   * Reads a setting's text: {@code auto} or the token of a contributed engine.
   *
   * @throws ConfigException naming {@code key} and listing the known tokens, for any other text
   */
  public static TlsEngine parse(String key, String text) {
    String token = text == null ? "" : text.trim();
    if (!TlsEngineCatalog.isKnown(token)) {
      throw TlsEngineCatalog.unknown(key, text);
    }
    return of(token);
  }

  /** The name users type. */
  public String token() {
    return token;
  }

  /** Whether this is {@code auto}, which names no engine until it is resolved. */
  public boolean isAuto() {
    return equals(AUTO);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TlsEngine && ((TlsEngine) o).token.equals(token);
  }

  @Override
  public int hashCode() {
    return token.hashCode();
  }

  @Override
  public String toString() {
    return token;
  }
}
