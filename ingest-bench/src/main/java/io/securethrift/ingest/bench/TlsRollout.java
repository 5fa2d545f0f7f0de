package io.securethrift.ingest.bench;

/**
 * The {@code tls-on} fault's steps: a rolling enablement of mutual TLS, one process at a time, as docs/tls.md's port
 * unification section tells an operator to do it, with the ingest client writing throughout.
 */
public final class TlsRollout {
  private TlsRollout() {}

  /** One process's move, in the order the roll makes them. */
  public enum Step {
    /** The server restarts on a unified port: the plaintext client is served, and mutual TLS would be too. */
    UNIFY_SERVER("server restart on a unified port"),
    /** The client moves to mutual TLS: its new connections are TLS ones. */
    CLIENT_TLS("client to mutual TLS"),
    /** The server turns TLS only through JMX, without a restart: a plaintext connection is refused from now on. */
    TLS_ONLY("server TLS only");

    private final String description;

    Step(String description) {
      this.description = description;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * The server's unified port as its JMX bean shows it.
   *
   * @param served plaintext connections it served
   * @param refused plaintext connections it refused once TLS only
   * @param accepted whether it serves plaintext now
   */
  public record Port(long served, long refused, boolean accepted) {}

  /**
   * What the roll showed about plaintext, judged at its end.
   *
   * @param servedWhileUnified plaintext connections the unified port served before it turned TLS only
   * @param servedAtEnd the same count at the end of the run: unchanged once the port is TLS only
   * @param probeRefused whether a plaintext client's call failed once the port was TLS only
   * @param refusedAtEnd plaintext connections the port refused and audited, the probe's among them
   */
  public record Check(long servedWhileUnified, long servedAtEnd, boolean probeRefused, long refusedAtEnd) {
    /** Plaintext was served while the port was unified, and only then; a plaintext client is refused and audited. */
    public boolean passed() {
      return servedWhileUnified > 0 && servedAtEnd == servedWhileUnified && probeRefused && refusedAtEnd > 0;
    }

    /** Its part of the report's line. */
    String describe() {
      return "plaintext served=" + servedWhileUnified + (servedAtEnd == servedWhileUnified ? "" : "+"
          + (servedAtEnd - servedWhileUnified) + " after TLS only") + " refused=" + refusedAtEnd
          + (probeRefused ? "" : " (a plaintext client was served at the end)");
    }
  }
}
