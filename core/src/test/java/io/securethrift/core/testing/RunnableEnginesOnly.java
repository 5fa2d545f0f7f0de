package io.securethrift.core.testing;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.spi.TlsEngineProvider;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * The one condition under which a test of the TLS matrix is skipped: its engine argument names an engine that cannot
 * run in this JVM (openssl where netty-tcnative does not load for this platform or runtime). The run is reported as
 * skipped with the engine's own reason, never passed. For parameterised tests whose arguments carry an engine
 * ({@link EachTlsEngine}, or {@code @ExtendWith} beside a {@code @CsvSource}).
 */
public final class RunnableEnginesOnly implements InvocationInterceptor {
  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
      ExtensionContext extension) throws Throwable {
    for (Object argument : context.getArguments()) {
      Optional<String> reason = argument instanceof TlsEngine ? unavailableReason((TlsEngine) argument)
          : Optional.empty();
      if (reason.isPresent()) {
        invocation.skip();
        throw new TestAbortedException("engine " + argument + " cannot run here: " + reason.get());
      }
    }
    invocation.proceed();
  }

  /** Why the contributed engine {@code engine} cannot run here; empty when it runs, or for {@code auto}. */
  public static Optional<String> unavailableReason(TlsEngine engine) {
    for (TlsEngineProvider provider : ServiceLoader.load(TlsEngineProvider.class)) {
      if (provider.token().equals(engine.token())) {
        return provider.unavailableReason();
      }
    }
    return engine.isAuto() ? Optional.empty() : Optional.of("no module on the class path contributes it");
  }
}
