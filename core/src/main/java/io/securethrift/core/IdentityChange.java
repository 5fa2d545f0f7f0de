package io.securethrift.core;

/**
 * What a TLS reload does when this side's rotated certificate names another identity than the one in use: another
 * subject distinguished name, another set of subject alternative names, or another first DNS, e-mail or URI name (what
 * principal mappings read) ({@code securethrift.tls.reload.identity.change}). Kafka's {@code ssl.allow.dn.changes}
 * and {@code ssl.allow.san.changes} (KIP-978) make the same decision in two switches. Trust store changes are always
 * taken.
 */
public enum IdentityChange {
  /**
   * The new material is not used: the previous context stays in use and a warning names the file, both identities and
   * this setting. The default: a rotation renews a certificate; a new name is a deployment change (or a mistake).
   */
  REFUSE("refuse"),
  /** The new material is used whatever its certificate names. */
  ALLOW("allow");

  private final String token;

  IdentityChange(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static IdentityChange parse(String key, String text) {
    return Tokens.parse(key, text, values(), IdentityChange::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
