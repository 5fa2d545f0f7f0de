package io.securethrift.testkit;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The JVM-wide {@code java.security.krb5.conf} that a test KDC ({@link EmbeddedKdc}, {@link MitKdc}) points at its
 * krb5.conf while it runs: one KDC at a time, because another would silently redirect the first one's clients, and
 * the value before it restored when it closes.
 */
final class Krb5ConfProperty {
  static final String NAME = "java.security.krb5.conf";

  /** The KDC that holds the property now, by its class's simple name; null when none does. */
  private static final AtomicReference<String> HOLDER = new AtomicReference<>();

  private final String previous;

  private Krb5ConfProperty(String previous) {
    this.previous = previous;
  }

  /**
   * Takes the property for a KDC of kind {@code kdc}, remembering its value.
   *
   * @throws IllegalStateException if another test KDC holds it
   */
  static Krb5ConfProperty claim(String kdc) {
    if (!HOLDER.compareAndSet(null, kdc)) {
      throw new IllegalStateException("another test KDC (" + HOLDER.get() + ") is running in this JVM; "
          + NAME + " is JVM-wide, so close it first");
    }
    return new Krb5ConfProperty(System.getProperty(NAME));
  }

  /** Points the property at {@code krb5Conf} and makes the JDK re-read it now (it keeps the one it read first). */
  void pointAt(Path krb5Conf) {
    System.setProperty(NAME, krb5Conf.toString());
    KerberosLogin.reloadKrb5Conf();
  }

  /** Restores the value the property had before {@link #claim} and lets another KDC take it. */
  void release() {
    if (previous == null) {
      System.clearProperty(NAME);
    } else {
      System.setProperty(NAME, previous);
    }
    HOLDER.set(null);
  }
}
