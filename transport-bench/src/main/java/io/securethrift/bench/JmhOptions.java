package io.securethrift.bench;

import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * JMH options for the launcher's benchmark commands: the user's JMH arguments win, and whatever they leave out gets a
 * default sized for a 2-core machine (one fork, 2 x 1 s warm-up, 3 x 2 s measurement) instead of JMH's own, which
 * would run for an hour.
 */
public final class JmhOptions {
  private JmhOptions() {}

  /**
   * @param include the benchmarks to run when the arguments name none
   * @param jmhArgs JMH command-line arguments, for example {@code -f 2 -i 5 -p size=65536}
   */
  public static Options of(String include, String... jmhArgs) throws CommandLineOptionException {
    CommandLineOptions given = new CommandLineOptions(jmhArgs);
    OptionsBuilder defaults = new OptionsBuilder();
    if (given.getIncludes().isEmpty()) {
      defaults.include(include);
    }
    if (!given.getForkCount().hasValue()) {
      defaults.forks(1);
    }
    if (!given.getWarmupIterations().hasValue()) {
      defaults.warmupIterations(2);
    }
    if (!given.getWarmupTime().hasValue()) {
      defaults.warmupTime(TimeValue.seconds(1));
    }
    if (!given.getMeasurementIterations().hasValue()) {
      defaults.measurementIterations(3);
    }
    if (!given.getMeasurementTime().hasValue()) {
      defaults.measurementTime(TimeValue.seconds(2));
    }
    if (!given.getJvmArgsAppend().hasValue()) {
      defaults.jvmArgsAppend("-Xmx1g");
    }
    return defaults.parent(given).build();
  }
}
