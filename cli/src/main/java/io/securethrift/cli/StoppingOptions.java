package io.securethrift.cli;

import io.securethrift.harness.Bootstrap;
import io.securethrift.harness.StoppingRule;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options that say when a benchmark stops adding rounds, the same in every benchmark command: {@code --rounds}
 * (alias {@code --iterations}), {@code --precision}, {@code --max-time}, {@code --min-rounds} and
 * {@code --max-rounds}. A command mixes them in with its own defaults, given as an adaptive {@link StoppingRule}
 * ({@code @Mixin StoppingOptions stopping = new StoppingOptions(DEFAULTS)}), and builds its rule with
 * {@link #rule()}, which names the option of a value it cannot use.
 */
final class StoppingOptions {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = {"--rounds", "--iterations"}, description = "A fixed number of rounds instead of adding them until"
      + " --precision; 0 for adaptive (default: ${DEFAULT-VALUE}).")
  private int rounds;

  @Option(names = "--precision", description = "Stop adding rounds once every interval that decides the run (see"
      + " above) is within this many points either side of its estimate (default: ${DEFAULT-VALUE}).")
  private double precision;

  @Option(names = "--max-time", description = "Seconds the whole run may take, counted from the command's start,"
      + " start-up and warm-up included; no round starts that would end later (default: ${DEFAULT-VALUE}).")
  private double maxTimeSeconds;

  @Option(names = "--min-rounds", description = "Rounds before --precision may end the run; at least "
      + Bootstrap.MIN_ROUNDS + ", the fewest an interval needs (default: ${DEFAULT-VALUE}).")
  private int minRounds;

  @Option(names = "--max-rounds", description = "Rounds after which an adaptive run ends anyway; 0 for no limit"
      + " (default: ${DEFAULT-VALUE}).")
  private int maxRounds;

  /** The options with a command's defaults: adaptive, with {@code defaults}' precision, budget and round limits. */
  StoppingOptions(StoppingRule defaults) {
    if (defaults.fixedRounds()) {
      throw new IllegalArgumentException("the defaults must be adaptive; --rounds turns a run into a fixed one");
    }
    precision = defaults.precision();
    maxTimeSeconds = defaults.maxTime().toMillis() / 1000.0;
    minRounds = defaults.minRounds();
    maxRounds = defaults.maxRounds();
  }

  /**
   * The rule the options ask for: exactly {@code --rounds} rounds when given, else adaptive.
   *
   * @throws ParameterException naming the option whose value cannot be used
   */
  StoppingRule rule() {
    if (rounds < 0) {
      throw bad("--rounds", rounds + " is less than 0 (0: add rounds until --precision)");
    }
    if (!(precision > 0) || Double.isInfinite(precision)) {
      throw bad("--precision", precision + " is not a positive number of points");
    }
    if (!(maxTimeSeconds > 0) || Double.isInfinite(maxTimeSeconds)) {
      throw bad("--max-time", maxTimeSeconds + " is not a positive number of seconds");
    }
    if (minRounds < Bootstrap.MIN_ROUNDS) {
      throw bad("--min-rounds", minRounds + " is less than " + Bootstrap.MIN_ROUNDS + ", the fewest rounds an"
          + " interval needs");
    }
    if (maxRounds < 0) {
      throw bad("--max-rounds", maxRounds + " is less than 0 (0: no limit)");
    }
    if (maxRounds != 0 && maxRounds < minRounds) {
      throw bad("--max-rounds", maxRounds + " is less than --min-rounds " + minRounds);
    }
    return rounds > 0 ? StoppingRule.fixed(rounds)
        : new StoppingRule(precision, Duration.ofMillis(Math.round(maxTimeSeconds * 1000)), minRounds, maxRounds);
  }

  private ParameterException bad(String option, String problem) {
    return new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "%s: %s", option, problem));
  }
}
