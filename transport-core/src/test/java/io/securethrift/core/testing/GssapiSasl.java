package io.securethrift.core.testing;

import io.securethrift.core.internal.RuntimeModules;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one test condition for the JDK's GSSAPI SASL mechanism, which lives in the module {@code jdk.security.jgss}.
 * Trimmed runtimes (the jlink'd images bin/run-tests also runs the library tests on) lack that module, while Kerberos
 * logins and the GSS-API itself ({@code java.security.jgss}) still work there; so only what negotiates GSSAPI SASL is
 * skipped, and only for that reason. Classes and methods say so with {@link RequiresGssapiSasl}; a test parameterized
 * over mechanisms calls {@link #assume()} for its GSSAPI cases.
 */
public final class GssapiSasl implements ExecutionCondition {
  /** Whether this JVM has the JDK's GSSAPI SASL mechanism. */
  public static boolean available() {
    return RuntimeModules.loaded(RuntimeModules.GSSAPI_SASL);
  }

  /** Aborts the current test, as skipped, on a runtime without the mechanism. */
  public static void assume() {
    Assumptions.assumeTrue(available(), GssapiSasl::reason);
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return available() ? ConditionEvaluationResult.enabled(RuntimeModules.GSSAPI_SASL + " is loaded")
        : ConditionEvaluationResult.disabled(reason());
  }

  private static String reason() {
    return "needs GSSAPI SASL, whose module " + RuntimeModules.GSSAPI_SASL + " this JVM (Java " + Runtime.version()
        + ") has not loaded";
  }
}
