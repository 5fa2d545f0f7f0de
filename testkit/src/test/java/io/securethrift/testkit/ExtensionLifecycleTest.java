package io.securethrift.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.security.auth.kerberos.KerberosTicket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.engine.discovery.DiscoverySelectors;

/**
 * Runs small fixture classes through the JUnit launcher to check what the extensions do across a
 * whole class: start once, share with {@code @Nested} classes, and clean up after the class.
 */
class ExtensionLifecycleTest {

  private String savedKrb5Conf;

  @BeforeEach
  void setMarker() {
    savedKrb5Conf = System.getProperty(Krb5ConfProperty.NAME);
    System.setProperty(Krb5ConfProperty.NAME, "/before/fixture/krb5.conf");
  }

  @AfterEach
  void restore() {
    if (savedKrb5Conf == null) {
      System.clearProperty(Krb5ConfProperty.NAME);
    } else {
      System.setProperty(Krb5ConfProperty.NAME, savedKrb5Conf);
    }
  }

  @Test
  void kdcExtensionRunsOneKdcPerClassAndRestoresKrb5Conf() {
    TestExecutionSummary summary = run(KdcFixture.class);

    assertEquals(0, summary.getTotalFailureCount(), () -> failures(summary));
    assertEquals(2, summary.getTestsSucceededCount());
    assertSame(KdcFixture.outer, KdcFixture.nested);
    assertEquals("/before/fixture/krb5.conf", System.getProperty(Krb5ConfProperty.NAME));
    assertFalse(Files.exists(KdcFixture.workDir));
  }

  @Test
  void certificateAuthorityExtensionDeletesItsDirectory() {
    TestExecutionSummary summary = run(CaFixture.class);

    assertEquals(0, summary.getTotalFailureCount(), () -> failures(summary));
    assertEquals(1, summary.getTestsSucceededCount());
    assertNotNull(CaFixture.directory);
    assertFalse(Files.exists(CaFixture.directory));
  }

  private static TestExecutionSummary run(Class<?> fixture) {
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(DiscoverySelectors.selectClass(fixture))
            .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    return listener.getSummary();
  }

  private static String failures(TestExecutionSummary summary) {
    StringBuilder text = new StringBuilder();
    summary.getFailures().forEach(f -> text.append(f.getException()).append('\n'));
    return text.toString();
  }

  static class KdcFixture {
    @RegisterExtension
    static KdcExtension kdc =
        KdcExtension.builder()
            .realm("FIXTURE.REALM")
            .ticketLifetime(Duration.ofMinutes(10))
            .principals("client")
            .build();

    static EmbeddedKdc outer;
    static EmbeddedKdc nested;
    static Path workDir;

    @Test
    void loginWithPreCreatedPrincipal(EmbeddedKdc injected) throws Exception {
      assertSame(kdc.kdc(), injected);
      outer = injected;
      workDir = injected.workDir();
      assertEquals(
          injected.krb5Conf().toString(), System.getProperty(Krb5ConfProperty.NAME));
      KerberosTicket tgt =
          EmbeddedKdcTest.onlyTicket(KerberosLogin.login(injected.principal("client")));
      assertEquals("client@FIXTURE.REALM", tgt.getClient().getName());
    }

    @Nested
    class Inner {
      @Test
      void sharesTheKdc(EmbeddedKdc injected) {
        nested = injected;
        assertTrue(Files.exists(injected.keytab("client")));
      }
    }
  }

  @ExtendWith(CertificateAuthorityExtension.class)
  static class CaFixture {
    static Path directory;

    @Test
    void writesIntoTheDirectory(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
      directory = dir;
      ca.writeCaPem(dir);
      assertTrue(Files.exists(dir.resolve("ca.crt")));
    }
  }
}
