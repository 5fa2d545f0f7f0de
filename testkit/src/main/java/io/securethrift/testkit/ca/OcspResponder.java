package io.securethrift.testkit.ca;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real OCSP responder for a {@link TestCertificateAuthority}: OpenSSL's {@code openssl ocsp} on a free port (OpenSSL
 * 3.0 listens on every interface; clients dial it on loopback), answering from an OpenSSL CA index ({@code index.txt})
 * that lists certificates as good or revoked (reason
 * keyCompromise), its answers signed by the CA itself and current for ten minutes ({@code -nmin 10}). A certificate the
 * index does not list is answered {@code unknown}. Needs the {@code openssl} command on the {@code PATH}.
 *
 * <pre>{@code
 * try (OcspResponder ocsp = OcspResponder.create(ca, dir)) {
 *   IssuedCertificate client = ca.leaf().commonName("alice").ocspResponder(ocsp.url()).issue();
 *   ocsp.revoke(client.certificate()).start();
 * }
 * }</pre>
 */
public final class OcspResponder implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final DateTimeFormatter INDEX_TIME =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Path dir;
  private final PemFiles caFiles;
  private final int port;
  private final Map<BigInteger, String> entries = new LinkedHashMap<>();
  private Process process;

  private OcspResponder(Path dir, PemFiles caFiles, int port) {
    this.dir = dir;
    this.caFiles = caFiles;
    this.port = port;
  }

  /**
   * Writes the CA's certificate and key to {@code dir} and chooses a free port; nothing runs until {@link #start()}.
   * The port is known first so that certificates can name {@link #url()} before the index lists them.
   */
  public static OcspResponder create(TestCertificateAuthority ca, Path dir) {
    Objects.requireNonNull(ca, "ca");
    return new OcspResponder(dir, ca.root().writePem(dir, "ocsp-ca", null), freePort());
  }

  /** Lists certificates as good; a running responder is restarted to read the new index. */
  public synchronized OcspResponder good(X509Certificate... certificates) {
    for (X509Certificate c : certificates) {
      entries.put(c.getSerialNumber(), indexLine(c, "V", ""));
    }
    return restartIfRunning();
  }

  /** Lists certificates as revoked a minute ago (keyCompromise); a running responder is restarted to read it. */
  public synchronized OcspResponder revoke(X509Certificate... certificates) {
    String revokedAt = INDEX_TIME.format(Instant.now().minus(Duration.ofMinutes(1))) + ",keyCompromise";
    for (X509Certificate c : certificates) {
      entries.put(c.getSerialNumber(), indexLine(c, "R", revokedAt));
    }
    return restartIfRunning();
  }

  /**
   * Writes the index and starts {@code openssl ocsp} on the port; returns once it listens.
   *
   * @throws IllegalStateException if it exits or does not listen within 30 seconds (its output is in the message),
   *     for example because another process took the port since {@link #create}
   */
  public synchronized OcspResponder start() {
    if (process != null) {
      throw new IllegalStateException("the responder on port " + port + " is running already");
    }
    Path index = dir.resolve("index.txt");
    IssuedCertificate.write(index, String.join("", entries.values()));
    IssuedCertificate.write(dir.resolve("index.txt.attr"), "unique_subject = no\n");
    Process started = launch(caFiles, index, port);
    try {
      awaitListening(started, port, dir.resolve("ocsp-responder.log"));
    } catch (IllegalStateException e) {
      stop(started);
      throw e;
    }
    process = started;
    return this;
  }

  /** OpenSSL 3.0's responder reads its index once, at start. */
  private OcspResponder restartIfRunning() {
    if (process != null) {
      close();
      start();
    }
    return this;
  }

  /** The responder's URL, {@code http://127.0.0.1:port}, to put in certificates or in a client's settings. */
  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The port it listens on. */
  public int port() {
    return port;
  }

  /** Stops the responder, if it runs, and waits for it to exit; its port then refuses connections. */
  @Override
  public synchronized void close() {
    if (process != null) {
      stop(process);
      process = null;
    }
  }

  /** One line of OpenSSL's CA index: status, expiry, revocation, serial, file name, subject. */
  private static String indexLine(X509Certificate certificate, String status, String revocation) {
    return status + '\t' + INDEX_TIME.format(certificate.getNotAfter().toInstant()) + '\t' + revocation + '\t'
        + serial(certificate.getSerialNumber()) + "\tunknown\t/"
        + certificate.getSubjectX500Principal().getName().replace(',', '/') + '\n';
  }

  /** Upper-case hex of an even length, as OpenSSL writes serial numbers and looks them up. */
  private static String serial(BigInteger serial) {
    String hex = serial.toString(16).toUpperCase(Locale.ROOT);
    return hex.length() % 2 == 0 ? hex : "0" + hex;
  }

  /**
   * A port free on every interface, as the responder binds it ({@code [::]}, dual-stack): a port free on 127.0.0.1
   * alone may still be held on an IPv6 address, and the responder would then fail to start.
   */
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port", e);
    }
  }

  private static Process launch(PemFiles ca, Path index, int port) {
    ProcessBuilder builder = new ProcessBuilder("openssl", "ocsp", "-index", index.toString(),
        "-port", Integer.toString(port), "-rsigner", ca.certificateChain().toString(),
        "-rkey", ca.privateKey().toString(), "-CA", ca.certificateChain().toString(), "-nmin", "10",
        "-ignore_err")
        .redirectErrorStream(true);
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run openssl ocsp (is openssl on the PATH?)", e);
    }
  }

  /**
   * Waits until the responder says it listens ("waiting for OCSP client connections", printed after it bound the
   * port), reading its output as it comes; the rest of the output keeps being read into the log, so a full pipe never
   * stalls it. A probe connection cannot tell instead: the responder serves one connection at a time and waits for the
   * probe's request even after the probe closed.
   */
  private static void awaitListening(Process process, int port, Path log) {
    CompletableFuture<Void> listening = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
          Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          file.write(line + "\n");
          file.flush();
          if (line.contains("waiting for OCSP client connections")) {
            listening.complete(null);
          }
        }
      } catch (IOException e) {
        listening.completeExceptionally(e);
      }
      listening.completeExceptionally(new IllegalStateException("openssl ocsp exited"));
    }, "openssl-ocsp-" + port);
    reader.setDaemon(true);
    reader.start();
    try {
      listening.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("openssl ocsp did not start listening on port " + port + ": " + output(log), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting openssl ocsp", e);
    }
  }

  private static String output(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
