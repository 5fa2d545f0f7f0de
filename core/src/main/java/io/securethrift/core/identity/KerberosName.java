package io.securethrift.core.identity;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A Kerberos principal name as Accumulo, Hadoop and ZooKeeper write it: {@code primary[/instance][@REALM]}, where an
 * instance of exactly {@code _HOST} stands for the local host's canonical name in lower case (Hadoop's
 * {@code SecurityUtil.getServerPrincipal} rule, which Accumulo uses). Every securethrift module parses principals and
 * expands {@code _HOST} here.
 */
public final class KerberosName {
  /** The instance that stands for the local host. */
  public static final String HOST_PLACEHOLDER = "_HOST";

  private final String primary;
  private final String instance;
  private final String realm;

  private KerberosName(String primary, String instance, String realm) {
    this.primary = primary;
    this.instance = instance;
    this.realm = realm;
  }

  /**
   * Parses {@code name}: the realm follows the last {@code @}, the instance the first {@code /} before it.
   *
   * @throws IllegalArgumentException when a part is empty
   */
  public static KerberosName parse(String name) {
    Objects.requireNonNull(name, "name");
    int at = name.lastIndexOf('@');
    String local = at < 0 ? name : name.substring(0, at);
    int slash = local.indexOf('/');
    String primary = slash < 0 ? local : local.substring(0, slash);
    String instance = slash < 0 ? null : local.substring(slash + 1);
    String realm = at < 0 ? null : name.substring(at + 1);
    if (primary.isEmpty() || (instance != null && instance.isEmpty()) || (realm != null && realm.isEmpty())) {
      throw new IllegalArgumentException("'" + name + "' is not a Kerberos principal: expected primary,"
          + " primary/instance or either with @REALM, no part empty");
    }
    return new KerberosName(primary, instance, realm);
  }

  /** The part before the instance and realm: a user, or a service such as {@code accumulo}. */
  public String primary() {
    return primary;
  }

  /** The part after {@code /}, for a service the host it runs on. */
  public Optional<String> instance() {
    return Optional.ofNullable(instance);
  }

  public Optional<String> realm() {
    return Optional.ofNullable(realm);
  }

  /** This principal with an instance of {@code _HOST} replaced by {@link #localHostName()}. */
  public KerberosName withHostExpanded() {
    return withHostExpanded(KerberosName::localHostName);
  }

  /** This principal with an instance of exactly {@code _HOST} replaced by {@code host}'s name in lower case. */
  public KerberosName withHostExpanded(Supplier<String> host) {
    return HOST_PLACEHOLDER.equals(instance)
        ? new KerberosName(primary, host.get().toLowerCase(Locale.ROOT), realm) : this;
  }

  /**
   * The local host's canonical name in lower case, what {@code _HOST} stands for.
   *
   * @throws UncheckedIOException when the local host name cannot be resolved
   */
  public static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      throw new UncheckedIOException("cannot expand " + HOST_PLACEHOLDER + ": the local host name is unknown", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KerberosName && toString().equals(o.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** The principal as Kerberos writes it. */
  @Override
  public String toString() {
    return primary + (instance == null ? "" : "/" + instance) + (realm == null ? "" : "@" + realm);
  }
}
