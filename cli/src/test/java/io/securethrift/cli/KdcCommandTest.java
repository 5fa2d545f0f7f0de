package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class KdcCommandTest {

  private static final String KRB5_CONF = "java.security.krb5.conf";

  @TempDir Path dir;

  private String savedKrb5Conf;

  @BeforeEach
  void saveProperty() {
    savedKrb5Conf = System.getProperty(KRB5_CONF);
  }

  @AfterEach
  void restoreProperty() {
    if (savedKrb5Conf == null) {
      System.clearProperty(KRB5_CONF);
    } else {
      System.setProperty(KRB5_CONF, savedKrb5Conf);
    }
  }

  @Test
  void runsUntilInterruptedAndPrintsKeytabs() throws Exception {
    ReadyWriter out = new ReadyWriter();
    StringWriter err = new StringWriter();
    AtomicInteger exit = new AtomicInteger(-1);
    Thread runner =
        new Thread(
            () ->
                exit.set(
                    new CommandLine(new KdcCommand())
                        .setOut(new PrintWriter(out))
                        .setErr(new PrintWriter(err))
                        .execute(
                            "--realm", "CLI.REALM", "--principal", "client",
                            "--principal", "zookeeper/localhost", "--dir", dir.toString())),
            "kdc-command");
    runner.start();

    boolean ready = out.ready.await(60, TimeUnit.SECONDS);
    String printed = out.text();
    runner.interrupt();
    runner.join();

    assertTrue(ready, () -> printed + err);
    assertEquals(0, exit.get(), err::toString);
    assertTrue(printed.contains("realm: CLI.REALM"), printed);
    assertTrue(printed.contains("krb5.conf: " + dir.resolve("krb5.conf")), printed);
    assertTrue(
        printed.contains("keytab client@CLI.REALM: " + dir.resolve("client.keytab")), printed);
    assertTrue(
        printed.contains(
            "keytab zookeeper/localhost@CLI.REALM: " + dir.resolve("zookeeper_localhost.keytab")),
        printed);
    assertTrue(Files.size(dir.resolve("client.keytab")) > 0);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        dir.resolve("client.keytab"))), "a keytab is its owner's alone");
    assertTrue(Files.readString(dir.resolve("krb5.conf")).contains("default_realm = CLI.REALM"));
    assertEquals(savedKrb5Conf, System.getProperty(KRB5_CONF));
  }

  @Test
  void badPortIsAUsageError() {
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new KdcCommand()).setErr(new PrintWriter(err)).execute("--port", "70000");

    assertEquals(2, exit);
    assertTrue(err.toString().contains("--port"), err::toString);
  }

  @Test
  void principalOfAnotherRealmIsAUsageError() {
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new KdcCommand())
            .setErr(new PrintWriter(err))
            .execute("--principal", "bob@OTHER.REALM");

    assertEquals(2, exit);
    assertTrue(err.toString().contains("--principal"), err::toString);
  }

  /** Collects output and signals once the command says it is ready. */
  private static final class ReadyWriter extends Writer {
    private final StringBuilder text = new StringBuilder();
    final CountDownLatch ready = new CountDownLatch(1);

    @Override
    public synchronized void write(char[] chars, int offset, int length) {
      text.append(chars, offset, length);
      if (text.indexOf(KdcCommand.READY) >= 0) {
        ready.countDown();
      }
    }

    synchronized String text() {
      return text.toString();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
