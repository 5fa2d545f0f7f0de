package io.securethrift.core;

/** The SASL mechanisms Accumulo uses: Kerberos, and DIGEST-MD5 for delegation tokens. */
public enum SaslMechanism {
  GSSAPI("GSSAPI"),
  DIGEST_MD5("DIGEST-MD5");

  private final String mechanismName;

  SaslMechanism(String mechanismName) {
    this.mechanismName = mechanismName;
  }

  /** The IANA mechanism name, as sent in the Thrift SASL START message. */
  public String mechanismName() {
    return mechanismName;
  }

  public static SaslMechanism parse(String key, String text) {
    return Tokens.parse(key, text, values(), SaslMechanism::mechanismName);
  }

  @Override
  public String toString() {
    return mechanismName;
  }
}
