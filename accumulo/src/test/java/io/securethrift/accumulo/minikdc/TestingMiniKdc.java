package io.securethrift.accumulo.minikdc;

import io.securethrift.testkit.KerberosLogin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.hadoop.minikdc.MiniKdc;

/**
 * Hadoop's {@link MiniKdc} for one test class, the KDC Accumulo's own integration tests run (Accumulo wraps it in
 * its {@code TestingKdc}): realm {@code EXAMPLE.COM}, TCP on {@code localhost}, a free port, and a temporary work
 * directory holding its krb5.conf and the keytabs, deleted by {@link #close()}.
 *
 * <p>MiniKdc points the JVM-wide {@code java.security.krb5.conf} at its krb5.conf and sets
 * {@code sun.security.krb5.debug}; it clears neither when it stops, so {@link #close()} puts both back as they were.
 * Because they are JVM-wide, no other KDC may run in the JVM meanwhile: the build runs test classes one at a time in
 * one fork per module, and {@link #start()} refuses to start while another KDC's krb5.conf is in force.
 */
final class TestingMiniKdc implements AutoCloseable {
  /** The host clients dial, so the host of every service principal. */
  static final String HOST = "localhost";

  private static final String KRB5_CONF = "java.security.krb5.conf";
  private static final String KRB5_DEBUG = "sun.security.krb5.debug";

  private final MiniKdc kdc;
  private final Path workDir;
  private final String previousDebug;

  private TestingMiniKdc(MiniKdc kdc, Path workDir, String previousDebug) {
    this.kdc = kdc;
    this.workDir = workDir;
    this.previousDebug = previousDebug;
  }

  /**
   * Starts a MiniKdc with its defaults (as {@code TestingKdc} does).
   *
   * @throws IllegalStateException if {@code java.security.krb5.conf} is already set: another KDC runs in this JVM
   */
  static TestingMiniKdc start() throws Exception {
    String inForce = System.getProperty(KRB5_CONF);
    if (inForce != null) {
      throw new IllegalStateException(KRB5_CONF + " is already set (" + inForce + "), so another KDC runs in this JVM;"
          + " MiniKdc would redirect its clients. Run KDC test classes one at a time in a fork (forkCount 1, no"
          + " parallel test classes)");
    }
    String previousDebug = System.getProperty(KRB5_DEBUG);
    Path workDir = Files.createTempDirectory("minikdc");
    Properties conf = MiniKdc.createConf();
    MiniKdc kdc = new MiniKdc(conf, workDir.toFile());
    try {
      kdc.start();
    } catch (Exception e) {
      restore(previousDebug);
      deleteRecursively(workDir);
      throw e;
    }
    TestingMiniKdc started = new TestingMiniKdc(kdc, workDir, previousDebug);
    try {
      // MiniKdc does not make the JDK re-read krb5.conf, and securethrift's keytab logins do not either: without this
      // the krb5.conf of a KDC class that ran earlier in the fork, and its port, would stay in force.
      KerberosLogin.reloadKrb5Conf();
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  String realm() {
    return kdc.getRealm();
  }

  /** {@code name@REALM}. */
  String qualify(String name) {
    return name + "@" + kdc.getRealm();
  }

  /** Creates {@code name@REALM} with a random key and exports it to a keytab of its own, whose path it returns. */
  Path principal(String name) throws Exception {
    Path keytab = workDir.resolve(name.replace('/', '_') + ".keytab");
    kdc.createPrincipal(keytab.toFile(), name);
    return keytab;
  }

  /** Stops the KDC, restores the JVM-wide Kerberos properties and deletes the keytabs and krb5.conf. */
  @Override
  public void close() {
    try {
      kdc.stop();
    } finally {
      restore(previousDebug);
      deleteRecursively(workDir);
    }
  }

  private static void restore(String previousDebug) {
    System.clearProperty(KRB5_CONF);
    if (previousDebug == null) {
      System.clearProperty(KRB5_DEBUG);
    } else {
      System.setProperty(KRB5_DEBUG, previousDebug);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the MiniKdc work directory " + dir, e);
    }
  }
}
