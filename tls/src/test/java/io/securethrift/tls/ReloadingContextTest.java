package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.IdentityChange;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reload decisions on one {@link ReloadingContext}, without connections: which changes are taken, which are
 * refused, and that a change is only taken from files that read the same before and after loading. The interval is
 * 1 ms and each check waits 2 ms first.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ReloadingContextTest {
  private static TlsSettings settings(Path keyStore, Path trustStore, IdentityChange change) {
    return TlsTestConfigs.tls(TlsEngine.JSSE, keyStore, trustStore).tlsReloadInterval(Duration.ofMillis(1))
        .tlsReloadIdentityChange(change).build().tls();
  }

  private static ReloadingContext.Snapshot check(ReloadingContext context) throws InterruptedException {
    Thread.sleep(2);
    return context.current();
  }

  private static BigInteger serial(ReloadingContext.Snapshot snapshot) {
    return snapshot.identity().orElseThrow().certificate().getSerialNumber();
  }

  private static BigInteger serial(IssuedCertificate certificate) {
    return certificate.certificate().getSerialNumber();
  }

  /** Writes the store beside {@code file} and moves it over, as a careful operator (or a Secret update) does. */
  private static void replace(Path file, KeyStore store) throws IOException, GeneralSecurityException {
    Path staged = file.resolveSibling(file.getFileName() + ".new");
    try (OutputStream out = Files.newOutputStream(staged)) {
      store.store(out, TlsTestConfigs.PASSWORD);
    }
    Files.move(staged, file, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void replace(Path file, IssuedCertificate certificate) throws IOException, GeneralSecurityException {
    replace(file, certificate.toKeyStore(KeyStoreFormat.PKCS12, "key", TlsTestConfigs.PASSWORD));
  }

  @Test
  void aClientsKeyStoreOfAnotherIdentityIsRefusedToo(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate alice = ca.leaf().commonName("alice").issue();
    Path store = TlsTestConfigs.keyStore(alice, dir, "client-refused");
    Path trust = TlsTestConfigs.trustStore(ca, dir);
    try (LogCapture log = LogCapture.start()) {
      ReloadingContext context = new ReloadingContext(StandardSslContextFactory.INSTANCE,
          settings(store, trust, IdentityChange.REFUSE), Role.CLIENT);
      ReloadingContext.Snapshot first = context.current();
      replace(store, ca.leaf().commonName("mallory").issue());
      assertSame(first, check(context), "the previous material stays");
      assertSame(first, check(context));
      List<String> refused = log.lines("refused");
      assertEquals(1, refused.size(), log.text());
      assertTrue(refused.get(0).contains("subject CN=alice became CN=mallory"), refused.get(0));

      IssuedCertificate renewed = ca.leaf().commonName("alice").issue();
      replace(store, renewed);
      assertEquals(serial(renewed), serial(check(context)));
    }
  }

  /** A trust store has no one identity: a CA roll adds and removes CAs, and every change is taken. */
  @Test
  void trustStoreChangesAreAlwaysTaken(TestCertificateAuthority ca, @CertificateDirectory Path dir) throws Exception {
    Path store = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "trust-roll");
    Path trust = TlsTestConfigs.trustStore(ca, dir.resolve("trust-roll"));
    ReloadingContext context = new ReloadingContext(StandardSslContextFactory.INSTANCE,
        settings(store, trust, IdentityChange.REFUSE), Role.SERVER);
    ReloadingContext.Snapshot first = context.current();
    KeyStore both = ca.trustStore(KeyStoreFormat.PKCS12);
    both.setCertificateEntry("next", TestCertificateAuthority.create("next CA", KeyType.RSA).certificate());
    replace(trust, both);
    ReloadingContext.Snapshot rolled = check(context);
    assertNotSame(first, rolled);
    assertTrue(first.identity().orElseThrow().sameAs(rolled.identity().orElseThrow()));
    KeyStore next = KeyStore.getInstance("PKCS12");
    next.load(null, null);
    next.setCertificateEntry("next", TestCertificateAuthority.create("next CA", KeyType.RSA).certificate());
    replace(trust, next);
    assertNotSame(rolled, check(context), "the old CA dropped: taken as well");
  }

  /**
   * Files that change while the new material is read from them (here: rewritten from inside the factory, after the
   * first fingerprint) are not taken, since the certificate, key and trust store might come from different moments;
   * the next check reads them again and takes them. The factory is a custom one, so the identity is read from the
   * configured key store.
   */
  @Test
  void filesChangingWhileTheyAreLoadedAreReadAgainAtTheNextCheck(TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().commonName("tserver").issue();
    IssuedCertificate second = ca.leaf().commonName("tserver").issue();
    IssuedCertificate third = ca.leaf().commonName("tserver").issue();
    Path store = TlsTestConfigs.keyStore(first, dir, "moving");
    Path trust = TlsTestConfigs.trustStore(ca, dir.resolve("moving"));
    AtomicInteger loads = new AtomicInteger();
    SslContextFactory rewriting = new SslContextFactory() {
      @Override
      public SSLContext createContext(TlsSettings settings, Role role) throws IOException, GeneralSecurityException {
        if (loads.getAndIncrement() == 1) {
          replace(store, third);
        }
        return StandardSslContextFactory.INSTANCE.createContext(settings, role);
      }

      @Override
      public SSLParameters parameters(SSLContext context, TlsSettings settings, Role role) {
        return StandardSslContextFactory.INSTANCE.parameters(context, settings, role);
      }
    };
    ReloadingContext context = new ReloadingContext(rewriting, settings(store, trust, IdentityChange.REFUSE),
        Role.SERVER);
    ReloadingContext.Snapshot initial = context.current();
    assertEquals(serial(first), serial(initial));
    replace(store, second);
    assertSame(initial, check(context), "changed while loading: not taken");
    assertEquals(2, loads.get());
    assertEquals(serial(third), serial(check(context)), "read again and taken");
    assertEquals(3, loads.get());
  }

  /**
   * A load that fails is not recorded as seen: the next check loads the same files again (here the first attempt
   * fails as if it had caught a file being rewritten in place with the same bytes, which no fingerprint notices), and
   * the warning is logged once per content, not once per check.
   */
  @Test
  void aFailedLoadIsTriedAgainAtEveryCheckAndWarnedOnce(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate first = ca.leaf().commonName("tserver").issue();
    Path store = TlsTestConfigs.keyStore(first, dir, "failing");
    Path trust = TlsTestConfigs.trustStore(ca, dir.resolve("failing"));
    AtomicInteger loads = new AtomicInteger();
    SslContextFactory failingOnce = new SslContextFactory() {
      @Override
      public SSLContext createContext(TlsSettings settings, Role role) throws IOException, GeneralSecurityException {
        if (loads.getAndIncrement() == 1) {
          throw new IOException("cannot read " + store + ": caught mid-rewrite");
        }
        return StandardSslContextFactory.INSTANCE.createContext(settings, role);
      }

      @Override
      public SSLParameters parameters(SSLContext context, TlsSettings settings, Role role) {
        return StandardSslContextFactory.INSTANCE.parameters(context, settings, role);
      }
    };
    try (LogCapture log = LogCapture.start()) {
      ReloadingContext context = new ReloadingContext(failingOnce, settings(store, trust, IdentityChange.REFUSE),
          Role.SERVER);
      ReloadingContext.Snapshot initial = context.current();
      IssuedCertificate renewed = ca.leaf().commonName("tserver").issue();
      replace(store, renewed);
      assertSame(initial, check(context));
      assertEquals(1, log.lines("changed but cannot be loaded").size(), log.text());
      ReloadingContext.Snapshot taken = check(context);
      assertEquals(serial(renewed), serial(taken), "the same files, loaded again");
      assertEquals(3, loads.get());

      Files.write(store, new byte[] {1, 2, 3});
      for (int i = 0; i < 3; i++) {
        assertSame(taken, check(context));
      }
      assertEquals(6, loads.get(), "loaded again at every check");
      assertEquals(2, log.lines("changed but cannot be loaded").size(), "once per content: " + log.text());
    }
  }
}
