package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.StoppingRule;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** The stopping options as a command sees them: its own defaults, the rule they build, bad values named. */
class StoppingOptionsTest {
  private static final StoppingRule DEFAULTS = new StoppingRule(3.0, Duration.ofSeconds(270), 4, 0);

  @Command(name = "bench")
  static final class Bench {
    @Mixin
    StoppingOptions stopping = new StoppingOptions(DEFAULTS);
  }

  private static StoppingRule rule(String... args) {
    Bench bench = new Bench();
    new CommandLine(bench).parseArgs(args);
    return bench.stopping.rule();
  }

  private static String error(String... args) {
    return assertThrows(ParameterException.class, () -> rule(args)).getMessage();
  }

  @Test
  void theCommandsDefaultsUntilAnOptionChangesThem() {
    assertEquals(DEFAULTS, rule());
    assertEquals(new StoppingRule(1.5, Duration.ofMillis(90_500), 5, 12),
        rule("--precision", "1.5", "--max-time", "90.5", "--min-rounds", "5", "--max-rounds", "12"));
    assertEquals(StoppingRule.fixed(6), rule("--rounds", "6"));
    assertEquals(StoppingRule.fixed(2), rule("--iterations", "2"), "the older name of --rounds");
    String help = new CommandLine(new Bench()).getUsageMessage();
    assertTrue(help.contains("(default: 270.0)") && help.contains("(default: 4)"), help);
  }

  @Test
  void aValueTheRuleCannotUseIsNamedWithItsOption() {
    assertEquals("--rounds: -1 is less than 0 (0: add rounds until --precision)", error("--rounds", "-1"));
    assertEquals("--precision: 0.0 is not a positive number of points", error("--precision", "0"));
    assertEquals("--precision: Infinity is not a positive number of points", error("--precision", "Infinity"));
    assertEquals("--max-time: -5.0 is not a positive number of seconds", error("--max-time", "-5"));
    assertEquals("--min-rounds: 2 is less than 3, the fewest rounds an interval needs", error("--min-rounds", "2"));
    assertEquals("--max-rounds: -1 is less than 0 (0: no limit)", error("--max-rounds", "-1"));
    assertEquals("--max-rounds: 3 is less than --min-rounds 4", error("--max-rounds", "3"));
  }

  @Test
  void aCommandsDefaultsAreAdaptive() {
    assertThrows(IllegalArgumentException.class, () -> new StoppingOptions(StoppingRule.fixed(3)));
  }
}
