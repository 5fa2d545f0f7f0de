package io.securethrift.core.testing;

import io.securethrift.core.internal.RuntimeModules;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import javax.security.sasl.SaslClientFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JDK's GSSAPI SASL mechanism for tests that pair with it, on every runtime. It lives in the module {@code
 * jdk.security.jgss}, which trimmed runtimes (the jlink'd images bin/run-tests also runs the library tests on) lack,
 * while Kerberos itself ({@code java.security.jgss}) is there. On such a runtime this extension adds, for each test,
 * {@link JdkGssapiInChildJvm}: a provider, last in the list, whose GSSAPI client and server are the JDK's own running
 * in a child JVM on a JDK that has the module ({@link #javaHome()}). So the pairing is still tested with the JDK's real
 * tokens and wrapping, the two mechanisms in two JVMs as they are in production. Where the module is loaded the
 * extension does nothing. Tests say so with {@link UsesJdkGssapi}.
 */
public final class GssapiSasl implements BeforeEachCallback, AfterEachCallback {
  /**
   * The JDK that runs Maven, set by the parent pom's Surefire configuration: what child JVMs run on when they need a
   * module this runtime lacks.
   */
  public static final String LAUNCHER_JAVA_HOME = "securethrift.test.launcher.java.home";

  /** Whether this JVM has the JDK's GSSAPI SASL mechanism. */
  public static boolean available() {
    return RuntimeModules.loaded(RuntimeModules.GSSAPI_SASL);
  }

  /** A Java runtime that has the JDK's GSSAPI SASL mechanism: this one, else the one that runs Maven. */
  public static Path javaHome() {
    return javaHomeWith(RuntimeModules.GSSAPI_SASL);
  }

  /** This JVM's runtime if it has all these modules, else the one that runs Maven ({@value #LAUNCHER_JAVA_HOME}). */
  public static Path javaHomeWith(String... modules) {
    boolean here = true;
    for (String module : modules) {
      here &= ModuleFinder.ofSystem().find(module).isPresent();
    }
    if (here) {
      return Path.of(System.getProperty("java.home"));
    }
    String launcher = System.getProperty(LAUNCHER_JAVA_HOME);
    if (launcher == null) {
      throw new IllegalStateException("this runtime (" + System.getProperty("java.home") + ") lacks one of "
          + String.join(", ", modules) + ", and " + LAUNCHER_JAVA_HOME + " names no JDK to run a child JVM on instead;"
          + " run the tests through Maven");
    }
    return Path.of(launcher);
  }

  /**
   * The JDK's GSSAPI SASL client factory, for a test that must have the JDK's whatever else is installed: from the
   * JDK's own provider here, else from {@link JdkGssapiInChildJvm} (which this extension must have added).
   */
  public static SaslClientFactory jdkClientFactory() throws NoSuchAlgorithmException {
    String name = available() ? "JdkSASL" : JdkGssapiInChildJvm.NAME;
    Provider provider = Security.getProvider(name);
    if (provider == null) {
      throw new IllegalStateException("no security provider " + name + ": is the test marked @UsesJdkGssapi?");
    }
    return (SaslClientFactory) provider.getService("SaslClientFactory", "GSSAPI").newInstance(null);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!available()) {
      Security.addProvider(new JdkGssapiInChildJvm());
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Security.removeProvider(JdkGssapiInChildJvm.NAME);
  }
}
