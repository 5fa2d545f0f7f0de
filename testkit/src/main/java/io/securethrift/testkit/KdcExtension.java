package io.securethrift.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that runs one {@link EmbeddedKdc} per test class: started before the first
 * test, closed (restoring {@code java.security.krb5.conf}) after the last, and injected into any
 * constructor, lifecycle or test method parameter of type {@code EmbeddedKdc}.
 *
 * <p>Either with defaults:
 *
 * <pre>{@code
 * @ExtendWith(KdcExtension.class)
 * class LoginTest {
 *   @Test void login(EmbeddedKdc kdc) throws Exception {
 *     Subject s = KerberosLogin.login(kdc.principal("client"));
 *   }
 * }
 * }</pre>
 *
 * or configured, from a <em>static</em> field (an instance field would miss {@code beforeAll}):
 *
 * <pre>{@code
 * @RegisterExtension
 * static KdcExtension kdc = KdcExtension.builder()
 *     .ticketLifetime(Duration.ofSeconds(10)).principals("client", "accumulo/localhost").build();
 * }</pre>
 *
 * <p>{@code java.security.krb5.conf} is JVM-wide, so classes using this extension must not run
 * concurrently in one JVM; the build runs test classes one after another in one fork per module.
 * {@code @Nested} classes share the enclosing class's KDC.
 */
public final class KdcExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private final EmbeddedKdc.Builder settings;
  private final List<String> principals;
  private EmbeddedKdc kdc;
  private String ownerId;

  /** Creates an extension with {@link EmbeddedKdc#builder()} defaults, for {@code @ExtendWith}. */
  public KdcExtension() {
    this(EmbeddedKdc.builder(), List.of());
  }

  private KdcExtension(EmbeddedKdc.Builder settings, List<String> principals) {
    this.settings = settings;
    this.principals = List.copyOf(principals);
  }

  /** Returns a builder for use with {@code @RegisterExtension}. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the running KDC, for {@code @BeforeAll} methods and field initialisers of a class that
   * registered this extension.
   *
   * @throws IllegalStateException outside the class's lifetime
   */
  public EmbeddedKdc kdc() {
    EmbeddedKdc current = kdc;
    if (current == null) {
      throw new IllegalStateException("the KDC runs only between beforeAll and afterAll");
    }
    return current;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (kdc != null) {
      return;
    }
    EmbeddedKdc started = settings.start();
    try {
      principals.forEach(started::principal);
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    kdc = started;
    ownerId = context.getUniqueId();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (kdc != null && context.getUniqueId().equals(ownerId)) {
      EmbeddedKdc running = kdc;
      kdc = null;
      ownerId = null;
      running.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == EmbeddedKdc.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return kdc();
  }

  /** Settings for a {@link KdcExtension}; see {@link EmbeddedKdc.Builder} for their meaning. */
  public static final class Builder {
    private final EmbeddedKdc.Builder settings = EmbeddedKdc.builder();
    private final List<String> principals = new ArrayList<>();

    private Builder() {}

    /** See {@link EmbeddedKdc.Builder#realm(String)}. */
    public Builder realm(String realm) {
      settings.realm(realm);
      return this;
    }

    /** See {@link EmbeddedKdc.Builder#port(int)}. */
    public Builder port(int port) {
      settings.port(port);
      return this;
    }

    /** See {@link EmbeddedKdc.Builder#ticketLifetime(Duration)}. */
    public Builder ticketLifetime(Duration lifetime) {
      settings.ticketLifetime(lifetime);
      return this;
    }

    /** See {@link EmbeddedKdc.Builder#maximumRenewableLifetime(Duration)}. */
    public Builder maximumRenewableLifetime(Duration lifetime) {
      settings.maximumRenewableLifetime(lifetime);
      return this;
    }

    /** See {@link EmbeddedKdc.Builder#clockSkew(Duration)}. */
    public Builder clockSkew(Duration skew) {
      settings.clockSkew(skew);
      return this;
    }

    /** Principals (as for {@link EmbeddedKdc#principal(String)}) to create when the KDC starts. */
    public Builder principals(String... names) {
      principals.addAll(List.of(names));
      return this;
    }

    /** Returns the extension; the KDC starts when the test class does. */
    public KdcExtension build() {
      return new KdcExtension(settings, principals);
    }
  }
}
