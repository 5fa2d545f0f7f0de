package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** The {@code --warmup-rounds} option as a command sees it: its own default, a negative count refused. */
class WarmUpOptionTest {
  @Command(name = "bench")
  static final class Bench {
    @Mixin
    WarmUpOption warmUp = new WarmUpOption(3);
  }

  @Test
  void theOptionTakesTheCommandsDefaultAndRefusesANegativeCount() {
    Bench bench = new Bench();
    new CommandLine(bench).parseArgs();
    assertEquals(3, bench.warmUp.rounds());
    new CommandLine(bench).parseArgs("--warmup-rounds", "0");
    assertEquals(0, bench.warmUp.rounds());
    new CommandLine(bench).parseArgs("--warmup-rounds", "-1");
    assertEquals("--warmup-rounds: -1 is less than 0 (0: no warm-up)",
        assertThrows(ParameterException.class, bench.warmUp::rounds).getMessage());
    assertTrue(new CommandLine(new Bench()).getUsageMessage().contains("(default: 3)"));
  }
}
