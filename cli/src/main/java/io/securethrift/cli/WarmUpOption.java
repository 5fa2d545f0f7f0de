package io.securethrift.cli;

import io.securethrift.harness.Bootstrap;
import io.securethrift.harness.WarmUp;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --warmup-rounds} option ({@link WarmUp}), mixed into a benchmark command with its default:
 * {@code @Mixin WarmUpOption warmUp = new WarmUpOption(3);}.
 */
final class WarmUpOption {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--warmup-rounds", description = "Rounds run first exactly like measured ones (each mode's own"
      + " baseline beside it), kept in the raw rows as rounds 0 and below and never analysed, so that every JVM has"
      + " compiled its paths before anything is measured; later ones are left out when the time left would not"
      + " hold them and the " + Bootstrap.MIN_ROUNDS + " measured rounds an interval needs; 0 for none (default:"
      + " ${DEFAULT-VALUE}).")
  private int rounds;

  /** The option with a command's default number of warm-up rounds. */
  WarmUpOption(int rounds) {
    if (rounds < 0) {
      throw new IllegalArgumentException("a negative default of warm-up rounds: " + rounds);
    }
    this.rounds = rounds;
  }

  /**
   * The number of warm-up rounds asked for.
   *
   * @throws ParameterException if it is negative
   */
  int rounds() {
    if (rounds < 0) {
      throw new ParameterException(spec.commandLine(), "--warmup-rounds: " + rounds + " is less than 0 (0: no"
          + " warm-up)");
    }
    return rounds;
  }
}
