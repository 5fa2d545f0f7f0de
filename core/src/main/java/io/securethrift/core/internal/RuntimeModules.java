package io.securethrift.core.internal;

import java.lang.module.ModuleFinder;

/**
 * The JDK modules securethrift needs beyond {@code java.base} that trimmed runtimes (jlink'd container images, or a JVM
 * started with {@code --limit-modules}) may lack, and the one wording of what to do about a missing one, so that a
 * SASL or TLS set-up failing for want of a module says which module and how to get it instead of only that an
 * algorithm is missing.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules and may change in
 * any release.
 */
public final class RuntimeModules {
  /** Holds the JDK's GSSAPI (Kerberos) SASL mechanism; {@code java.security.jgss} alone is only the GSS-API. */
  public static final String GSSAPI_SASL = "jdk.security.jgss";
  /** Holds the JDK's EC provider, SunEC, up to Java 21; since Java 22 SunEC is part of {@code java.base}. */
  public static final String EC = "jdk.crypto.ec";

  private RuntimeModules() {}

  /** Whether this JVM loaded {@code module}. */
  public static boolean loaded(String module) {
    return ModuleLayer.boot().findModule(module).isPresent();
  }

  /**
   * "{@code what} is in the module {@code module}, which this Java runtime ..." and the fix: {@code --add-modules} when
   * the runtime image has the module but the JVM did not load it, else adding it to the image.
   */
  public static String missing(String what, String module) {
    String runtime = "this Java runtime (" + Runtime.version() + " at " + System.getProperty("java.home") + ")";
    if (ModuleFinder.ofSystem().find(module).isPresent()) {
      return what + " is in the module " + module + ", which " + runtime + " has but did not load, as when"
          + " started with --limit-modules; start the JVM with --add-modules " + module;
    }
    return what + " is in the module " + module + ", which " + runtime + " does not include, as in a jlink'd"
        + " image built without it; add it to the image (jlink --add-modules " + module + ") or run on a full JDK";
  }
}
