package io.securethrift.core.internal;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Hands the package-private operations of {@code io.securethrift.core.identity} and {@code io.securethrift.core.audit}
 * to {@code io.securethrift.core.transport}, which runs them, without making them public API (the JDK's
 * {@code SharedSecrets} pattern). Each owning class installs its operations once, from its static initializer; only
 * classes of the transport package, loaded by core's class loader, may take them. The identity issuer stays a
 * capability: core passes it only to the layers it loads.
 */
public final class SharedAccess {
  /** Hidden frames shown: a method reference to this class, called by other code, counts as its creator's call. */
  private static final StackWalker STACK = StackWalker.getInstance(
      Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_HIDDEN_FRAMES));
  private static final String TRANSPORT = "io.securethrift.core.transport";

  private static volatile IdentityOperations identity;
  private static volatile AuditOperations audit;
  private static volatile IdentityField<X509Certificate> tlsServerCertificate;
  private static volatile IdentityField<Instant> ticketEnd;

  private SharedAccess() {}

  /** What the transport package needs of {@link PeerIdentity} and may not be public. */
  public interface IdentityOperations {
    /** The only issuer of identities, for the layers core loads. */
    PeerIdentity.Issuer issuer();

    /** Runs {@code call} with {@code peer} as {@link PeerIdentity#current()}, restoring the previous value after. */
    <E extends Exception> void runAs(PeerIdentity peer, ThrowingRunnable<E> call) throws E;
  }

  /** What the transport package needs of {@link HandshakeAudit} and may not be public. */
  public interface AuditOperations {
    /** A new audit of the servers of {@code config}, timing on {@code nanoClock}. */
    HandshakeAudit create(SecurityConfig config, LongSupplier nanoClock);
  }

  /**
   * A value the TLS or SASL layer records in the identity it builds and other securethrift modules read, hidden so
   * that it adds nothing to {@link PeerIdentity}'s API: the certificate a connection's TLS server presented (the SASL
   * layer binds Kerberos to it), and when the Kerberos service ticket a client authenticated with ends (both server
   * models close the connection at it, between calls).
   *
   * @param <T> the value's type
   */
  public interface IdentityField<T> {
    /** Records {@code value} in {@code identity}; a builder comes only from the identity issuer. */
    PeerIdentity.Builder record(PeerIdentity.Builder identity, T value);

    /** The value recorded in {@code identity}; empty when its connection has none. */
    Optional<T> of(PeerIdentity identity);

    /** The field {@code setter} records and {@code getter} reads (null for none). */
    static <T> IdentityField<T> of(BiConsumer<PeerIdentity.Builder, T> setter, Function<PeerIdentity, T> getter) {
      return new IdentityField<>() {
        @Override
        public PeerIdentity.Builder record(PeerIdentity.Builder identity, T value) {
          setter.accept(identity, value);
          return identity;
        }

        @Override
        public Optional<T> of(PeerIdentity identity) {
          return Optional.ofNullable(getter.apply(identity));
        }
      };
    }
  }

  /** A call that may throw {@code E}. */
  @FunctionalInterface
  public interface ThrowingRunnable<E extends Exception> {
    void run() throws E;
  }

  /** Called once, by {@link PeerIdentity}'s static initializer. */
  public static void installIdentity(IdentityOperations operations) {
    requireCaller(PeerIdentity.class);
    if (identity != null) {
      throw new IllegalStateException("identity operations already installed");
    }
    identity = operations;
  }

  /** Called once, by {@link HandshakeAudit}'s static initializer. */
  public static void installAudit(AuditOperations operations) {
    requireCaller(HandshakeAudit.class);
    if (audit != null) {
      throw new IllegalStateException("audit operations already installed");
    }
    audit = operations;
  }

  /** Called once, by {@link PeerIdentity}'s static initializer. */
  public static void installIdentityFields(IdentityField<X509Certificate> serverCertificate,
      IdentityField<Instant> serviceTicketEnd) {
    requireCaller(PeerIdentity.class);
    if (tlsServerCertificate != null) {
      throw new IllegalStateException("identity fields already installed");
    }
    tlsServerCertificate = serverCertificate;
    ticketEnd = serviceTicketEnd;
  }

  /**
   * The Kerberos ticket end of identities, for securethrift's SASL layer and server models (this package is exported
   * to securethrift's modules only). Recording needs a builder, which only the identity issuer makes.
   */
  public static IdentityField<Instant> ticketEnd() {
    initialize(PeerIdentity.class);
    return ticketEnd;
  }

  /**
   * The TLS server certificate of identities, for securethrift's TLS and SASL layers (this package is exported to
   * securethrift's modules only). Recording needs a builder, which only the identity issuer makes.
   */
  public static IdentityField<X509Certificate> tlsServerCertificate() {
    initialize(PeerIdentity.class);
    return tlsServerCertificate;
  }

  /** {@link PeerIdentity}'s operations, for a class of the transport package. */
  public static IdentityOperations identity() {
    requireTransportCaller();
    initialize(PeerIdentity.class);
    return identity;
  }

  /** {@link HandshakeAudit}'s operations, for a class of the transport package. */
  public static AuditOperations audit() {
    requireTransportCaller();
    initialize(HandshakeAudit.class);
    return audit;
  }

  /** The class that called the public method of this class that calls this. */
  private static Class<?> caller() {
    return STACK.walk(frames -> frames.skip(3).findFirst()).orElseThrow().getDeclaringClass();
  }

  private static void requireCaller(Class<?> owner) {
    Class<?> caller = caller();
    if (caller != owner) {
      throw new IllegalCallerException(caller.getName() + " may not install " + owner.getSimpleName()
          + "'s operations");
    }
  }

  private static void requireTransportCaller() {
    Class<?> caller = caller();
    if (!caller.getPackageName().equals(TRANSPORT) || caller.getClassLoader() != SharedAccess.class.getClassLoader()) {
      throw new IllegalCallerException(caller.getName() + " is not part of " + TRANSPORT);
    }
  }

  private static void initialize(Class<?> owner) {
    try {
      Class.forName(owner.getName(), true, owner.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }
}
