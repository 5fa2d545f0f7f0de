package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which baseline each variant is divided by. */
class PairedAnalysisTest {

  private static Measurement row(String variant, int round, double cost) {
    return new Measurement("server", variant, round, Map.of("cost", cost));
  }

  @Test
  void aVariantIsDividedByTheBaselineInItsOwnProcessesWhereItRanOne() {
    List<Measurement> rows = new ArrayList<>();
    // Warm-up rounds (-1 and 0) cost far more than the others, and are left out.
    for (int round = -1; round <= 0; round++) {
      rows.add(row("none", round, 5.0));
      rows.add(row("tls/none", round, 1.0));
      rows.add(row("tls", round, 9.0));
      rows.add(row("sasl", round, 9.0));
    }
    for (int round = 1; round <= 3; round++) {
      // The separate baseline processes are 20 % slower than the baseline inside tls's own processes.
      rows.add(row("none", round, 1.2));
      rows.add(row("tls/none", round, 1.0));
      rows.add(row("tls", round, 1.5));
      rows.add(row("sasl", round, 1.8));
    }
    List<Overhead> overheads = PairedAnalysis.overheads(rows, "none", "cpu", m -> m.value("cost"), 1);

    assertEquals(List.of("tls", "sasl"), overheads.stream().map(Overhead::variant).toList(),
        "one overhead per variant, none for the baseline's rows in tls's processes");
    assertArrayEquals(new double[] {1.5, 1.5, 1.5}, overheads.get(0).ratios(), 1e-12, "tls against tls/none");
    assertArrayEquals(new double[] {1.5, 1.5, 1.5}, overheads.get(1).ratios(), 1e-12, "sasl against none");
    assertEquals(50.0, overheads.get(0).interval().estimate(), 1e-9);
  }

  @Test
  void ownBaselineNamesTheVariantsProcesses() {
    assertEquals("tls-jsse/none", PairedAnalysis.ownBaseline("tls-jsse", "none"));
    assertTrue(PairedAnalysis.isOwnBaseline("tls-jsse/none", "none"));
    assertFalse(PairedAnalysis.isOwnBaseline("none", "none"));
    assertFalse(PairedAnalysis.isOwnBaseline("tls-jsse", "none"));
  }

  @Test
  void theOwnBaselineAlternatesSidesEveryRoundWarmUpsIncluded() {
    assertEquals(List.of(false, true, false, true, false, true),
        List.of(-4, -3, -2, -1, 0, 1).stream().map(PairedAnalysis::ownBaselineFirst).toList());
  }
}
