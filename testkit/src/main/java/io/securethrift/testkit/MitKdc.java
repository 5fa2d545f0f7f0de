package io.securethrift.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * MIT Kerberos's KDC ({@code krb5kdc}) run as a child process, for what Kerby's {@link EmbeddedKdc} cannot do: issue
 * tickets sealed with RFC 8009's enctypes ({@code aes128-cts-hmac-sha256-128}, {@code aes256-cts-hmac-sha384-192}),
 * as MIT and FreeIPA KDCs in the field do. Each principal gets the keys of the enctypes the test names.
 *
 * <p>MIT's programs come from the directory the system property {@value #PROGRAMS_PROPERTY} names ({@code
 * scripts/mit-kdc} installs them and prints it; {@code bin/run-tests} passes it). The KDC's database, kdc.conf,
 * krb5.conf, log and keytabs live in a temporary directory that {@link #close()} deletes after stopping the KDC. It
 * listens on TCP only, on a free loopback port. As for {@link EmbeddedKdc}, {@code java.security.krb5.conf} points at
 * its krb5.conf while it runs (one test KDC per JVM at a time) and the JDK re-reads it at the start.
 *
 * <pre>{@code
 * try (MitKdc kdc = MitKdc.builder().ticketLifetime(Duration.ofSeconds(4)).start()) {
 *   KerberosIdentity service = kdc.principal("accumulo/localhost", "aes256-cts-hmac-sha384-192");
 *   KerberosIdentity client = kdc.principal("client", MitKdc.ENCTYPES);
 * }
 * }</pre>
 */
public final class MitKdc implements AutoCloseable {
  /** The system property naming the directory of {@code krb5kdc}, {@code kdb5_util} and {@code kadmin.local}. */
  public static final String PROGRAMS_PROPERTY = "securethrift.mit.kdc";

  /** The enctypes this KDC supports, strongest first: RFC 8009's two, then RFC 3962's two. */
  public static final String[] ENCTYPES = {"aes256-cts-hmac-sha384-192", "aes128-cts-hmac-sha256-128",
      "aes256-cts-hmac-sha1-96", "aes128-cts-hmac-sha1-96"};

  private static final int START_ATTEMPTS = 5;
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Path programs;
  private final String realm;
  private final Path workDir;
  private final Path krb5Conf;
  private final Krb5ConfProperty krb5ConfProperty;
  private final Map<String, KerberosIdentity> identities = new ConcurrentHashMap<>();
  private final AtomicInteger keytabs = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private Process kdc;
  private int port;

  private MitKdc(Path programs, String realm, Path workDir, Krb5ConfProperty krb5ConfProperty) {
    this.programs = programs;
    this.realm = realm;
    this.workDir = workDir;
    this.krb5Conf = workDir.resolve("krb5.conf");
    this.krb5ConfProperty = krb5ConfProperty;
  }

  /** Returns a builder with the defaults: realm {@code EXAMPLE.COM}, 1 hour tickets, 5 minutes of clock skew. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the realm, e.g. {@code EXAMPLE.COM}. */
  public String realm() {
    return realm;
  }

  /** Returns the TCP port the KDC listens on, on loopback. */
  public int port() {
    return port;
  }

  /** Returns the krb5.conf clients and MIT's programs use; {@code java.security.krb5.conf} points here. */
  public Path krb5Conf() {
    return krb5Conf;
  }

  /** Returns what the KDC logged so far (MIT's log names each ticket's enctypes: {@code etypes {rep=.. tkt=..}}). */
  public List<String> log() {
    try {
      Path log = workDir.resolve("kdc.log");
      return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the KDC's log", e);
    }
  }

  /**
   * Creates {@code name@REALM} with random keys of {@code enctypes} only (MIT names, such as {@code
   * aes256-cts-hmac-sha384-192}), or gives an existing one new random keys of those types, and returns it with a new
   * keytab holding all of them. The KDC seals a service's tickets with the first enctype of its keys it supports.
   */
  public KerberosIdentity principal(String name, String... enctypes) {
    String principal = qualify(name);
    String keys = keySalts(enctypes);
    if (identities.containsKey(principal)) {
      kadmin("cpw -randkey -e " + keys + " " + principal, "Key for \"" + principal + "\" randomized.", 1);
    } else {
      kadmin("addprinc -randkey -e " + keys + " " + principal, "Principal \"" + principal + "\" created.", 1);
    }
    String shortName = principal.substring(0, principal.lastIndexOf('@')).replace('/', '_');
    Path keytab = workDir.resolve(shortName + "-" + keytabs.incrementAndGet() + ".keytab");
    kadmin("ktadd -k " + keytab + " -norandkey " + principal, " added to keytab ", enctypes.length);
    KerberosIdentity identity = new KerberosIdentity(principal, keytab);
    identities.put(principal, identity);
    return identity;
  }

  /** Stops the KDC, restores {@code java.security.krb5.conf} and deletes the working directory; again: nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (kdc != null) {
        stop(kdc);
      }
    } finally {
      krb5ConfProperty.release();
      Directories.deleteRecursively(workDir);
    }
  }

  private String qualify(String name) {
    Objects.requireNonNull(name, "name");
    return name.contains("@") ? name : name + "@" + realm;
  }

  /** Key/salt pairs of {@code enctypes}, which must be some of {@link #ENCTYPES}: MIT ignores names it cannot use. */
  private static String keySalts(String... enctypes) {
    if (enctypes.length == 0 || !List.of(ENCTYPES).containsAll(List.of(enctypes))) {
      throw new IllegalArgumentException("enctypes must be some of " + String.join(", ", ENCTYPES) + ", were "
          + String.join(", ", enctypes));
    }
    List<String> keys = new ArrayList<>();
    for (String enctype : enctypes) {
      keys.add(enctype + ":normal");
    }
    return String.join(",", keys);
  }

  /** Runs a kadmin.local query, which says whether it failed only on its output: {@code done} must be there n times. */
  private void kadmin(String query, String done, int times) {
    String output = run("kadmin.local", "-r", realm, "-q", query);
    if (output.split(Pattern.quote(done), -1).length - 1 != times) {
      throw new IllegalStateException("kadmin.local -q '" + query + "' failed: " + output.strip());
    }
  }

  /** Runs one of MIT's programs in the working directory and returns its output; fails unless it exits with 0. */
  private String run(String program, String... args) {
    List<String> command = new ArrayList<>();
    command.add(programs.resolve(program).toString());
    command.addAll(List.of(args));
    Path output = workDir.resolve(program + ".out");
    try {
      Process process = processBuilder(command).redirectOutput(output.toFile()).start();
      if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not end within " + COMMAND_TIMEOUT);
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
            + text.strip());
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    }
  }

  private ProcessBuilder processBuilder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
    builder.environment().put("KRB5_CONFIG", krb5Conf.toString());
    builder.environment().put("KRB5_KDC_PROFILE", workDir.resolve("kdc.conf").toString());
    return builder;
  }

  /** Starts krb5kdc on {@code chosenPort} and waits until it accepts connections there, or fails if it exits. */
  private boolean startKdc(int chosenPort, String kdcConf) throws IOException, InterruptedException {
    Files.writeString(workDir.resolve("kdc.conf"), kdcConf.replace("@PORT@", Integer.toString(chosenPort)),
        StandardCharsets.UTF_8);
    Path output = workDir.resolve("krb5kdc.out");
    Process process = processBuilder(List.of(programs.resolve("krb5kdc").toString(), "-n", "-r", realm))
        .redirectOutput(output.toFile()).start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        // Most likely another process took the free port between probing and binding.
        return false;
      }
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), chosenPort), 1000);
        kdc = process;
        port = chosenPort;
        return true;
      } catch (IOException notYet) {
        // The KDC binds its socket after opening the database; it exits if it cannot.
        process.waitFor(10, TimeUnit.MILLISECONDS);
      }
    }
    stop(process);
    throw new IllegalStateException("krb5kdc did not listen on port " + chosenPort + " within " + START_TIMEOUT
        + ": " + Files.readString(output, StandardCharsets.UTF_8).strip() + "; log: " + String.join("\n", log()));
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Collects the settings of a {@link MitKdc}; {@link #start()} runs it. */
  public static final class Builder {
    private String realm = "EXAMPLE.COM";
    private Duration ticketLifetime = Duration.ofHours(1);
    private Duration clockSkew = Duration.ofMinutes(5);

    private Builder() {}

    /** Sets the realm (upper case by Kerberos convention). Default {@code EXAMPLE.COM}. */
    public Builder realm(String realm) {
      this.realm = KdcSettings.realm(realm);
      return this;
    }

    /**
     * Sets the longest ticket the KDC issues (and the lifetime clients ask for); with a small {@link #clockSkew},
     * since both the KDC and the JDK accept tickets up to the clock skew past their end. Default 1 hour.
     */
    public Builder ticketLifetime(Duration lifetime) {
      this.ticketLifetime = KdcSettings.positiveSeconds(lifetime, "ticketLifetime");
      return this;
    }

    /** Sets the clock skew both the KDC and the JDK tolerate. Default 5 minutes. */
    public Builder clockSkew(Duration skew) {
      this.clockSkew = KdcSettings.clockSkew(skew);
      return this;
    }

    /**
     * Creates the KDC's database and starts it, pointing {@code java.security.krb5.conf} at its krb5.conf.
     *
     * @throws IllegalStateException if {@value #PROGRAMS_PROPERTY} names no directory with MIT's programs, another
     *     test KDC runs in this JVM, or the KDC cannot start
     */
    public MitKdc start() {
      Path programs = programs();
      Krb5ConfProperty property = Krb5ConfProperty.claim("MitKdc");
      MitKdc started = null;
      try {
        started = new MitKdc(programs, realm, Files.createTempDirectory("mit-kdc-"), property);
        startIn(started);
        property.pointAt(started.krb5Conf);
        return started;
      } catch (IOException | RuntimeException e) {
        closeOrRelease(started, property);
        throw new IllegalStateException("cannot start MIT's KDC: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        closeOrRelease(started, property);
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting MIT's KDC", e);
      }
    }

    private static void closeOrRelease(MitKdc started, Krb5ConfProperty property) {
      if (started != null) {
        started.close();
      } else {
        property.release();
      }
    }

    private void startIn(MitKdc kdc) throws IOException, InterruptedException {
      String dir = kdc.workDir.toString();
      String enctypes = String.join(" ", ENCTYPES);
      String kdcConf = String.join("\n",
          "[kdcdefaults]",
          "    kdc_listen = \"\"",
          "    kdc_tcp_listen = 127.0.0.1:@PORT@",
          "",
          "[realms]",
          "    " + realm + " = {",
          "        database_name = " + dir + "/principal",
          "        key_stash_file = " + dir + "/stash",
          "        acl_file = " + dir + "/kadm5.acl",
          "        max_life = " + ticketLifetime.toSeconds() + "s",
          "        max_renewable_life = 0s",
          "        master_key_type = aes256-cts-hmac-sha1-96",
          "        supported_enctypes = " + String.join(" ", keySalts(ENCTYPES).split(",")),
          "    }",
          "",
          "[logging]",
          "    kdc = FILE:" + dir + "/kdc.log",
          "    admin_server = FILE:" + dir + "/kadmin.log",
          "    default = FILE:" + dir + "/kadmin.log",
          "");
      for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
        int chosen = KdcSettings.freePort(EmbeddedKdc.HOST);
        Krb5ConfWriter.write(kdc.krb5Conf, realm, EmbeddedKdc.HOST, chosen, enctypes, ticketLifetime,
            ticketLifetime, clockSkew);
        if (attempt == 1) {
          // The database does not depend on the port; kdb5_util reads the realm's paths from kdc.conf.
          Files.writeString(kdc.workDir.resolve("kdc.conf"), kdcConf, StandardCharsets.UTF_8);
          kdc.run("kdb5_util", "-r", realm, "create", "-s", "-P", "master-key-of-a-test-kdc-" + System.nanoTime());
        }
        if (kdc.startKdc(chosen, kdcConf)) {
          return;
        }
      }
      throw new IllegalStateException("krb5kdc exited at start " + START_ATTEMPTS + " times: "
          + String.join("\n", kdc.log()));
    }

    private static Path programs() {
      String dir = System.getProperty(PROGRAMS_PROPERTY, "");
      if (dir.isBlank()) {
        throw new IllegalStateException("no MIT Kerberos KDC: the system property " + PROGRAMS_PROPERTY + " names"
            + " the directory of its krb5kdc, kdb5_util and kadmin.local. bin/run-tests sets it from"
            + " scripts/mit-kdc, which installs Debian's krb5-kdc and krb5-admin-server with apt-get when run as"
            + " root; by hand: ./mvnw test -D" + PROGRAMS_PROPERTY + "=$(scripts/mit-kdc)");
      }
      Path path = Path.of(dir);
      for (String program : List.of("krb5kdc", "kdb5_util", "kadmin.local")) {
        if (!Files.isExecutable(path.resolve(program))) {
          throw new IllegalStateException(PROGRAMS_PROPERTY + "=" + dir + " holds no executable " + program
              + "; name the directory scripts/mit-kdc prints");
        }
      }
      return path;
    }
  }
}
