package io.securethrift.core.audit;

import io.securethrift.core.AuditFormat;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.HandshakeClassifier;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place a server reports how each connection's handshake ended, whatever server model runs it (libthrift's
 * {@code TThreadPoolServer} through {@link ServerTransportFactory}, or a non-blocking server): one line on the audit
 * logger {@value #LOGGER_NAME} per outcome, the {@link AuthCounters}, and the main log's warning.
 *
 * <p>The main log stays quiet under scans and floods: a connection closed before its first handshake message is
 * logged at DEBUG only; any other refusal gives one WARN line without a stack trace (the trace is at DEBUG), at most
 * one per cause every {@link #WARN_INTERVAL}, the next one saying how many were left out in between. The audit log and
 * the counters see every connection. An authenticated connection closed for what its peer sent or would not take
 * ({@link #closing}) gets the same treatment, one window per {@link Refusal}.
 *
 * <p>Every value that a peer can influence (addresses, principals, certificate subjects, error text) is escaped by
 * {@link PeerText} once before it is written: a value as it is in the line, error text through
 * {@link PeerText#describe}, which keeps what the layers escaped already. Thread-safe.
 */
public final class HandshakeAudit {
  /** The audit logger's name; route it to its own file in the logging configuration. */
  public static final String LOGGER_NAME = "securethrift.audit";
  /** The shortest time between two main-log warnings of the same cause. */
  public static final Duration WARN_INTERVAL = Duration.ofSeconds(60);

  private static final Logger AUDIT = LoggerFactory.getLogger(LOGGER_NAME);
  /**
   * The main log's lines keep the logger operators already know: the category is the transport factory's name
   * from before core's packages were split (docs/audit.md), not a class name.
   */
  private static final Logger LOG = LoggerFactory.getLogger("io.securethrift.core.ServerTransportFactory");
  private static final String NONE = "-";

  static {
    // The transport package creates each server's audit; the constructor is not API.
    SharedAccess.installAudit(HandshakeAudit::new);
  }

  /** Which part of the handshake was running when it failed. */
  public enum Stage {
    TLS("tls"),
    SASL("sasl");

    private final String token;

    Stage(String token) {
      this.token = token;
    }

    public String token() {
      return token;
    }

    @Override
    public String toString() {
      return token;
    }
  }

  /**
   * Why an authenticated connection was closed for what its peer sent or failed to take: each kind has its own
   * warning window, as each handshake cause has.
   */
  public enum Refusal {
    /** A frame over the limit, a length not backed by its frame's bytes, or a frame that failed its check. */
    FRAME("frame"),
    /** A message the protocol cannot parse (a bad header, nesting over the limit, a malformed field). */
    MESSAGE("message"),
    /** Replies the peer does not take: unsent bytes over the write-buffer limit. */
    REPLY("reply"),
    /** Anything else that ended a call and its connection. */
    CALL("call");

    private final String token;

    Refusal(String token) {
      this.token = token;
    }

    public String token() {
      return token;
    }
  }

  private final SecurityMode mode;
  private final AuditFormat format;
  private final AuthCounters counters = new AuthCounters();
  private final LongSupplier nanoClock;
  /** Per handshake cause, then per refusal: when its last warning was logged (0 = never), and how many were left out
   * since. Guarded by this. */
  private final long[] lastWarning = new long[AuthFailure.values().length + Refusal.values().length];
  private final long[] leftOut = new long[lastWarning.length];

  HandshakeAudit(SecurityConfig config, LongSupplier nanoClock) {
    this.mode = config.mode();
    this.format = config.auditFormat();
    this.nanoClock = nanoClock;
  }

  /** The counts this audit has kept. */
  public AuthCounters counters() {
    return counters;
  }

  /**
   * Records a completed handshake: one audit line with the peer, principal, certificate subject, mechanism, QOP, TLS
   * version and suite, and how long the handshake took; a plaintext connection on a unified TLS port gets
   * {@code cause=plaintext} and is counted by {@link AuthCounters#plaintext()} too.
   */
  public void succeeded(PeerIdentity identity, Duration handshake) {
    // A connection without protection on a port whose mode has some is the plaintext a unified port serves.
    boolean plaintext = identity.mode() == SecurityMode.NONE && mode != SecurityMode.NONE;
    if (AUDIT.isInfoEnabled()) {
      AUDIT.info(successLine(identity, handshake, plaintext));
    }
    // Counted after the line is written, so whoever sees the count also finds the line.
    counters.succeeded(protection(identity));
    if (plaintext) {
      counters.servedPlaintext();
    }
  }

  private String successLine(PeerIdentity identity, Duration handshake, boolean plaintext) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("event", "auth");
    fields.put("outcome", "success");
    fields.put("peer", String.valueOf(identity.remoteAddress()));
    fields.put("mode", identity.mode().token());
    if (plaintext) {
      fields.put("cause", AuthFailure.PLAINTEXT.token());
    }
    fields.put("principal", identity.principal().orElse(null));
    fields.put("subject", identity.peerCertificates().stream().findFirst()
        .map(leaf -> leaf.getSubjectX500Principal().getName()).orElse(null));
    fields.put("mechanism", identity.mechanism().orElse(null));
    fields.put("qop", identity.qop().map(QualityOfProtection::token).orElse(null));
    fields.put("sasl_cipher", identity.saslCipher().orElse(null));
    fields.put("tls_protocol", identity.tlsProtocol().orElse(null));
    fields.put("tls_suite", identity.tlsCipherSuite().orElse(null));
    fields.put("tls_resumed", identity.tlsProtocol().isPresent() ? identity.tlsSessionResumed() : null);
    fields.put("handshake_ms", handshake.toMillis());
    return line(fields);
  }

  /**
   * Records a refused handshake: classifies {@code error} (a {@link HandshakeFailure} in its cause chain names the
   * cause; timeouts, TLS errors and closed connections are recognised), counts it, writes one audit line and, unless
   * rate-limited, the main log's warning.
   *
   * @param peer the remote address
   * @param stage the layer that was running
   * @param error what the layer threw
   * @param handshake how long the handshake ran before it failed
   * @return the cause it was counted under
   */
  public AuthFailure failed(SocketAddress peer, Stage stage, Throwable error, Duration handshake) {
    AuthFailure cause = HandshakeClassifier.classify(error, stage);
    String who = PeerText.sanitize(String.valueOf(peer));
    String detail = PeerText.describe(error);
    if (AUDIT.isInfoEnabled()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("event", "auth");
      fields.put("outcome", "failure");
      fields.put("peer", new Escaped(who));
      fields.put("mode", mode.token());
      fields.put("stage", stage.token());
      fields.put("cause", cause.token());
      fields.put("handshake_ms", handshake.toMillis());
      fields.put("detail", new Escaped(detail));
      AUDIT.info(line(fields));
    }
    if (cause == AuthFailure.CLOSED_BEFORE_HANDSHAKE) {
      LOG.debug("connection from {} closed before its handshake began: {}", who, detail);
    } else {
      long omitted = admitWarning(cause.ordinal());
      if (omitted >= 0) {
        LOG.warn("rejected connection from {} [{}]: {}{}", who, cause.token(), detail, omitted == 0 ? ""
            : " (" + omitted + " more " + cause.token() + " rejections since the last such warning were not logged)");
      }
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("rejected connection from " + who + " [" + cause.token() + "]", error);
    }
    counters.failed(cause);
    return cause;
  }

  /**
   * Records that an authenticated connection is being closed for what its peer did: one WARN naming the peer and why,
   * at most one per kind every {@link #WARN_INTERVAL}, the next one saying how many were left out (they are at DEBUG).
   *
   * @param reason why, already escaped where it quotes the peer
   */
  public void closing(SocketAddress peer, Refusal refusal, String reason) {
    String who = PeerText.sanitize(String.valueOf(peer));
    long omitted = admitWarning(AuthFailure.values().length + refusal.ordinal());
    if (omitted >= 0) {
      LOG.warn("closing connection with {}: {}{}", who, reason, omitted == 0 ? "" : " (" + omitted + " more "
          + refusal.token() + " refusals since the last such warning were not logged)");
    } else {
      LOG.debug("closing connection with {}: {}", who, reason);
    }
  }

  /**
   * Records that the server closed an authenticated connection on its own account, between calls: one audit line
   * ({@code event=close}, the peer, principal, cause and the connection's age) and the count; the main log has it at
   * DEBUG only, since with a maximum age every connection ends like this.
   */
  public void closed(PeerIdentity identity, CloseCause cause, Duration age) {
    if (AUDIT.isInfoEnabled()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("event", "close");
      fields.put("peer", String.valueOf(identity.remoteAddress()));
      fields.put("mode", identity.mode().token());
      fields.put("principal", identity.principal().orElse(null));
      fields.put("cause", cause.token());
      fields.put("age_ms", age.toMillis());
      AUDIT.info(line(fields));
    }
    LOG.debug("closing connection with {} between calls [{}]", PeerText.sanitize(String.valueOf(
        identity.remoteAddress())), cause.token());
    counters.closed(cause);
  }

  /** How many warnings of window {@code i} were left out since the last one, or -1 if this one is left out too. */
  private synchronized long admitWarning(int i) {
    long now = nanoClock.getAsLong();
    if (lastWarning[i] != 0 && now - lastWarning[i] < WARN_INTERVAL.toNanos()) {
      leftOut[i]++;
      return -1;
    }
    // 0 means never; a clock reading of exactly 0 is taken as 1, which shifts the window by a nanosecond.
    lastWarning[i] = now == 0 ? 1 : now;
    long omitted = leftOut[i];
    leftOut[i] = 0;
    return omitted;
  }

  /** The counters' key: {@code none}, {@code TLSv1.3}, {@code GSSAPI/auth-conf}, {@code TLSv1.3+GSSAPI/auth}. */
  static String protection(PeerIdentity identity) {
    String tls = identity.tlsProtocol().orElse(null);
    String sasl = identity.mechanism().map(m -> m + "/" + identity.qop().map(QualityOfProtection::token)
        .orElse(NONE)).orElse(null);
    if (tls != null && sasl != null) {
      return tls + "+" + sasl;
    }
    return tls != null ? tls : sasl != null ? sasl : "none";
  }

  /** A field value {@link PeerText} has escaped already; every other string value is escaped by {@link #line}. */
  private static final class Escaped {
    private final String text;

    Escaped(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** {@code v} as the line writes it: escaped once. */
  private static String text(Object v) {
    return v instanceof Escaped ? v.toString() : PeerText.sanitize(v.toString());
  }

  private String line(Map<String, Object> fields) {
    StringBuilder s = new StringBuilder(256);
    if (format == AuditFormat.JSON) {
      s.append('{');
      for (Map.Entry<String, Object> e : fields.entrySet()) {
        s.append(s.length() == 1 ? "" : ",").append('"').append(e.getKey()).append("\":");
        Object v = e.getValue();
        if (v == null || v instanceof Boolean || v instanceof Long) {
          s.append(v);
        } else {
          s.append('"').append(escaped(text(v))).append('"');
        }
      }
      return s.append('}').toString();
    }
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      s.append(s.length() == 0 ? "" : " ").append(e.getKey()).append('=');
      Object v = e.getValue();
      String text = v == null ? NONE : text(v);
      s.append(needsQuotes(text) ? "\"" + escaped(text) + "\"" : text);
    }
    return s.toString();
  }

  /**
   * Whether a key=value field must be quoted: empty, or holding any space character (a no-break or ideographic space
   * too, which a reader would take for the end of the value), a quote, an equals sign or a backslash.
   */
  private static boolean needsQuotes(String text) {
    if (text.isEmpty()) {
      return true;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isSpaceChar(c) || c == '"' || c == '=' || c == '\\') {
        return true;
      }
    }
    return false;
  }

  /**
   * Backslash and double quote escaped, the layout's own quoting (JSON, or a quoted key=value), which a reader undoes
   * to get PeerText's text back; PeerText has already made every control character visible text.
   */
  private static String escaped(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  @Override
  public String toString() {
    return "HandshakeAudit[" + mode + " " + format + " " + counters + "]";
  }
}
