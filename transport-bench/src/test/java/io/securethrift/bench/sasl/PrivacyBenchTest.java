package io.securethrift.bench.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingRule;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.nio.file.Path;
import java.security.Security;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sasl-bench privacy} end to end with tiny turns: real GSSAPI on an embedded KDC, AES-GCM privacy on the
 * JDK's and a native provider's cipher, TLS on Conscrypt with a test CA's certificate, every mode's rows and
 * intervals written.
 */
class PrivacyBenchTest {
  @TempDir
  Path dir;

  @Test
  void threeTinyRoundsGiveEveryModeItsRatiosAndRows() throws Exception {
    Path out = dir.resolve("run");
    PrivacyBench.Settings settings = PrivacyBench.Settings.of(List.of("none", "auth-conf", "auth-conf-gcm",
        "auth-conf-libthrift", "auth-conf-provider", "auth-conf-gcm-accp", "tls-conscrypt"), List.of(1000, 70000),
        0.04, 2, 0.02, StoppingRule.fixed(3), out);
    String table = new PrivacyBench(settings, System.err).run();

    ResultsFile results = ResultsFile.read(out.resolve("privacy-results.json"), PrivacyBench.TOOL);
    // 2 sizes x 6 modes against none.
    assertEquals(12, results.overheads().size(), results.overheads().toString());
    for (Overhead o : results.overheads()) {
      assertEquals(3, o.rounds(), o.toString());
      assertTrue(o.interval().bounded(), o.toString());
    }
    // A warm-up and three measured rows per size and mode.
    assertEquals(2 * 7 * 4, results.rows().size());
    for (Measurement row : results.rows()) {
      assertTrue(row.value("echoes") >= 1 && row.value("ns") > 0, row.toString());
      assertEquals(row.group().equals("1000B") ? 1000 : 70_000, row.value("bytes"), row.toString());
    }
    for (Map<String, Object> s : results.summary()) {
      assertTrue((double) s.get("median_mb_per_s") > 0, s.toString());
    }
    assertTrue(table.contains("| 70000B | sasl-auth-conf-gcm-accp | 3 |"), table);
    assertTrue(table.contains("| 70000B | sasl-auth-conf-provider | 3 |"), table);
    assertTrue(table.contains("| 70000B | sasl-auth-conf-libthrift | 3 |"), table);
    assertNull(Security.getProvider(SecureThriftSaslProvider.NAME), "the provider is removed with its fixture");
    assertTrue(table.contains("| 1000B | none | 3 |"), table);
    assertTrue(table.contains("| 70000B | tls-conscrypt | 3 |"), table);
  }
}
