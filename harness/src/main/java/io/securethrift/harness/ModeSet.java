package io.securethrift.harness;

import io.securethrift.core.ConfigException;
import io.securethrift.core.TlsEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The modes one benchmark runs, in its report order, and the one place its {@code --modes} option is read: every
 * name in {@link BenchMode}'s grammar (older spellings included), a TLS mode without an engine on the benchmark's
 * default engine, and anything the benchmark does not run refused with the list of what it does.
 */
public final class ModeSet {
  private final String tool;
  private final TlsEngine defaultEngine;
  private final List<BenchMode> modes;

  private ModeSet(String tool, TlsEngine defaultEngine, List<BenchMode> modes) {
    this.tool = tool;
    this.defaultEngine = defaultEngine;
    this.modes = List.copyOf(modes);
  }

  /**
   * @param tool the benchmark, named in errors ({@code zk-bench})
   * @param defaultEngine the engine of a mode written {@code tls}; {@code null} keeps such a mode engine-less (the
   *     benchmark chooses the engine some other way, and {@code tls} must then be one of {@code names})
   * @param names the modes the benchmark runs, canonical, in report order
   */
  public static ModeSet of(String tool, TlsEngine defaultEngine, String... names) {
    List<BenchMode> modes = new ArrayList<>();
    for (String name : names) {
      BenchMode mode = BenchMode.parse(tool, name);
      if (!mode.name().equals(name)) {
        throw new IllegalArgumentException(tool + " lists mode " + name + " by an older name: " + mode.name());
      }
      modes.add(mode);
    }
    return new ModeSet(tool, defaultEngine, modes);
  }

  /** Every mode, in report order. */
  public List<BenchMode> all() {
    return modes;
  }

  /** Every mode's canonical name, in report order. */
  public List<String> names() {
    return modes.stream().map(BenchMode::name).collect(Collectors.toList());
  }

  /** Whether the benchmark runs {@code mode}. */
  public boolean contains(BenchMode mode) {
    return modes.contains(mode);
  }

  /**
   * One mode of this benchmark.
   *
   * @throws ConfigException naming {@code option} for text outside the grammar or a mode this benchmark does not run
   */
  public BenchMode parse(String option, String text) {
    BenchMode mode = BenchMode.parse(option, text);
    if (defaultEngine != null) {
      mode = mode.onDefaultEngine(defaultEngine);
    }
    if (!modes.contains(mode)) {
      throw new ConfigException(option, "'" + text + "' is not a mode " + tool + " runs; it runs "
          + String.join(", ", names()));
    }
    return mode;
  }

  /** The modes named, in the order given, each once. */
  public List<BenchMode> parse(String option, List<String> texts) {
    List<BenchMode> parsed = new ArrayList<>();
    for (String text : texts) {
      BenchMode mode = parse(option, text);
      if (parsed.contains(mode)) {
        throw new ConfigException(option, "'" + text + "' names " + mode + ", which is already listed");
      }
      parsed.add(mode);
    }
    if (parsed.isEmpty()) {
      throw new ConfigException(option, "no mode given; " + tool + " runs " + String.join(", ", names()));
    }
    return parsed;
  }

  /** As {@link #parse(String, List)}, for a comma-separated list. */
  public List<BenchMode> parseList(String option, String commaSeparated) {
    return parse(option, Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .collect(Collectors.toList()));
  }
}
