package io.securethrift.core.internal;

import java.util.List;

/**
 * The TLS versions securethrift enables and accepts, newest first, which is also the order it prefers them in. Older
 * versions are broken and disabled by current JDKs anyway. The one home of this list: the default and the checks of
 * {@code securethrift.tls.protocols}, its documentation and Accumulo's protocol keys all read it.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules and may change in
 * any release.
 */
public final class TlsVersions {
  /** Newest first. */
  public static final List<String> ACCEPTED = List.of("TLSv1.3", "TLSv1.2");

  private TlsVersions() {}

  /** {@code TLSv1.3, TLSv1.2}, for "accepted values" messages. */
  public static String listed() {
    return String.join(", ", ACCEPTED);
  }

  /** {@code TLSv1.3,TLSv1.2}, as a property value. */
  public static String asProperty() {
    return String.join(",", ACCEPTED);
  }

  /** {@code TLSv1.3 or TLSv1.2}, for a key that takes one version. */
  public static String either() {
    return String.join(" or ", ACCEPTED);
  }

  /** {@code TLSv1.3, TLSv1.2 or both}, for a key that takes a list. */
  public static String someOf() {
    return listed() + " or both";
  }
}
