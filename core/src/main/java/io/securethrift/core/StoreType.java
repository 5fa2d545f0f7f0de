package io.securethrift.core;

import java.nio.file.Path;
import java.util.Locale;

/** File formats for key and trust material. */
public enum StoreType {
  JKS("jks"),
  PKCS12("pkcs12"),
  /** A PEM certificate chain, plus (for key stores) a PKCS#8 private key, encrypted or not. */
  PEM("pem");

  private final String token;

  StoreType(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static StoreType parse(String key, String text) {
    return Tokens.parse(key, text == null ? null : text.toLowerCase(Locale.ROOT), values(), StoreType::token);
  }

  /** Guesses the type from a file name when none is configured; the TLS module confirms it from the content. */
  public static StoreType fromFileName(Path path) {
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".jks") || name.endsWith(".keystore") || name.endsWith(".truststore")) {
      return JKS;
    }
    if (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer") || name.endsWith(".key")) {
      return PEM;
    }
    return PKCS12;
  }

  @Override
  public String toString() {
    return token;
  }
}
