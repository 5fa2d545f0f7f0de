package io.securethrift.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * SASL quality of protection, with Accumulo's exact tokens ({@code rpc.sasl.qop}). {@code auth} authenticates only,
 * {@code auth-int} adds an integrity check to every message, {@code auth-conf} also encrypts.
 */
public enum QualityOfProtection {
  AUTH("auth"),
  AUTH_INT("auth-int"),
  AUTH_CONF("auth-conf");

  private final String token;

  QualityOfProtection(String token) {
    this.token = token;
  }

  /** The token as Accumulo and {@code javax.security.sasl.qop} spell it. */
  public String token() {
    return token;
  }

  /** Whether messages are wrapped (integrity or confidentiality) after negotiation. */
  public boolean wrapsMessages() {
    return this != AUTH;
  }

  /** Parses one token, exact and case-sensitive as Accumulo requires. */
  public static QualityOfProtection parse(String key, String text) {
    return Tokens.parse(key, text, values(), QualityOfProtection::token);
  }

  /**
   * Parses an ordered preference list such as {@code auth-conf,auth-int}: most preferred first, no repeats, at least
   * one entry.
   */
  public static List<QualityOfProtection> parseList(String key, String text) {
    List<String> tokens = Tokens.splitList(text);
    if (tokens.isEmpty()) {
      throw new ConfigException(key, "empty; give one or more of " + Tokens.list(values(), QualityOfProtection::token)
          + " in order of preference");
    }
    List<QualityOfProtection> list = new ArrayList<>();
    for (String token : tokens) {
      QualityOfProtection qop = parse(key, token);
      if (list.contains(qop)) {
        throw new ConfigException(key, "'" + token + "' is listed twice");
      }
      list.add(qop);
    }
    return Collections.unmodifiableList(list);
  }

  /** The list as the comma-separated value {@code javax.security.sasl.qop} takes. */
  public static String toSaslProperty(List<QualityOfProtection> list) {
    return list.stream().map(QualityOfProtection::token).collect(Collectors.joining(","));
  }

  @Override
  public String toString() {
    return token;
  }
}
