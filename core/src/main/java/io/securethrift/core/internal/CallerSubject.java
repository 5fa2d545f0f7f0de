package io.securethrift.core.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.AccessController;
import javax.security.auth.Subject;

/** The {@code Subject} of the enclosing {@code Subject.doAs} or {@code callAs}, on every Java runtime. */
public final class CallerSubject {
  /** {@code Subject.current()}, which Java 18 added; null on older runtimes. */
  private static final MethodHandle CURRENT = currentHandle();

  private CallerSubject() {}

  /**
   * {@code Subject.current()} where the runtime has it (Java 18 and later; from Java 23 on, {@code getSubject} refuses
   * to run without a security manager, and from 24 always), else {@code Subject.getSubject} of the access control
   * context; null outside any.
   */
  @SuppressWarnings("removal") // the fallback, for Java 11 to 17, which lack Subject.current()
  public static Subject current() {
    if (CURRENT != null) {
      try {
        return (Subject) CURRENT.invokeExact();
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException("Subject.current() failed: " + e, e);
      }
    }
    return Subject.getSubject(AccessController.getContext());
  }

  private static MethodHandle currentHandle() {
    try {
      return MethodHandles.publicLookup().findStatic(Subject.class, "current", MethodType.methodType(Subject.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }
}
