package io.securethrift.core.audit;

import io.securethrift.core.transport.ServerTransportFactory;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many connections one server factory accepted, by protection, refused, by {@link AuthFailure}, and closed after
 * authentication on its own account, by {@link CloseCause}, since it was created. Read-only and live: every call reads
 * the current counts; each count is exact, a set of them read together is not one atomic snapshot. Get it from
 * {@link ServerTransportFactory#counters()}.
 */
public final class AuthCounters {
  private final Map<String, LongAdder> successes = new ConcurrentHashMap<>();
  private final AtomicLongArray failures = new AtomicLongArray(AuthFailure.values().length);
  private final AtomicLongArray closes = new AtomicLongArray(CloseCause.values().length);
  private final LongAdder plaintext = new LongAdder();

  AuthCounters() {}

  void succeeded(String protection) {
    successes.computeIfAbsent(protection, p -> new LongAdder()).increment();
  }

  void servedPlaintext() {
    plaintext.increment();
  }

  /**
   * Plaintext connections a unified TLS port ({@code securethrift.server.port.unification}) served, audited with cause
   * {@code plaintext}; also among the {@link #successes()} as protection {@code none}. When it stops growing with
   * every client moved, the port can be switched to TLS only.
   */
  public long plaintext() {
    return plaintext.sum();
  }

  void failed(AuthFailure cause) {
    failures.incrementAndGet(cause.ordinal());
  }

  void closed(CloseCause cause) {
    closes.incrementAndGet(cause.ordinal());
  }

  /** Authenticated connections the server closed on its own account for {@code cause}. */
  public long closes(CloseCause cause) {
    return closes.get(cause.ordinal());
  }

  /** Connections that completed their handshake. */
  public long successes() {
    return successes.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /**
   * Successes by protection, sorted by key: {@code none}, {@code GSSAPI/auth-conf}, {@code TLSv1.3},
   * {@code TLSv1.3+GSSAPI/auth} (sasl-over-tls), {@code DIGEST-MD5/auth-conf}...
   */
  public Map<String, Long> successesByProtection() {
    Map<String, Long> copy = new TreeMap<>();
    successes.forEach((protection, count) -> copy.put(protection, count.sum()));
    return Collections.unmodifiableMap(copy);
  }

  /** Refused connections, every cause together. */
  public long failures() {
    long total = 0;
    for (int i = 0; i < failures.length(); i++) {
      total += failures.get(i);
    }
    return total;
  }

  public long failures(AuthFailure cause) {
    return failures.get(cause.ordinal());
  }

  /** Refusals by cause, every cause present (zero when it never happened), in declaration order. */
  public Map<AuthFailure, Long> failuresByCause() {
    Map<AuthFailure, Long> copy = new EnumMap<>(AuthFailure.class);
    for (AuthFailure cause : AuthFailure.values()) {
      copy.put(cause, failures(cause));
    }
    return Collections.unmodifiableMap(copy);
  }

  /**
   * One line for a shutdown report: {@code successes=2 (GSSAPI/auth-conf=2) failures=1000
   * (closed-before-handshake=1000)}; causes that never happened are left out.
   */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("successes=").append(successes()).append(" (");
    String sep = "";
    for (Map.Entry<String, Long> e : successesByProtection().entrySet()) {
      s.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = " ";
    }
    s.append(") failures=").append(failures()).append(" (");
    sep = "";
    for (Map.Entry<AuthFailure, Long> e : failuresByCause().entrySet()) {
      if (e.getValue() > 0) {
        s.append(sep).append(e.getKey().token()).append('=').append(e.getValue());
        sep = " ";
      }
    }
    return s.append(')').toString();
  }
}
