package io.securethrift.cli;

import io.securethrift.bench.sasl.PrivacyBench;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sasl-bench privacy}: the privacy modes' echo throughput in paired rounds ({@link PrivacyBench}). */
@Command(name = "privacy", mixinStandardHelpOptions = true, description = {
    "Echo throughput of auth-conf with GSS wrap and with AES-GCM privacy (JDK, Conscrypt and Amazon Corretto Crypto"
        + " Provider ciphers; auth-conf-libthrift and auth-conf-provider: libthrift's own SASL transports with Kerberos"
        + " wrap, and with securethrift's SASL provider's AES-GCM), and of TLS on JSSE and Conscrypt, as ratios to none"
        + " and to auth-conf with 95 %% intervals: every mode has its own server and connection in one JVM, and the"
        + " modes take turns in every round, so the machine's moments fall on all alike. Rounds are added until every"
        + " interval is within --precision points of cost or --max-time is up."})
final class PrivacyBenchCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--modes", split = ",", description = "modes, none and auth-conf among them (default:"
      + " ${DEFAULT-VALUE})")
  private List<String> modes = PrivacyBench.MODES;
  @Option(names = "--sizes", split = ",", description = "echoed payload bytes (default: ${DEFAULT-VALUE})")
  private List<Integer> sizes = List.of(64 << 10, 1 << 20);
  @Option(names = "--seconds", description = "how long each mode echoes each size per round (default:"
      + " ${DEFAULT-VALUE})")
  private double seconds = 0.6;
  @Option(names = "--turns", description = "how many turns a round's --seconds are cut into (default:"
      + " ${DEFAULT-VALUE})")
  private int turns = 4;
  @Option(names = "--warm-up", description = "seconds each mode echoes each size before the rounds, not analysed:"
      + " the JDK's AES-GCM is slow until the JIT has compiled it (default: ${DEFAULT-VALUE})")
  private double warmUp = 3.0;
  @Mixin
  private StoppingOptions stopping = new StoppingOptions(PrivacyBench.DEFAULT_STOPPING);
  @Option(names = "--output", description = "directory for privacy-results.json and privacy-rounds.csv (default:"
      + " ${DEFAULT-VALUE})")
  private Path output = Path.of("privacy-results");

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    out.print(new PrivacyBench(settings(), System.err).run());
    out.println("wrote " + output.resolve("privacy-results.json") + " (and privacy-rounds.csv)");
    out.flush();
    return 0;
  }

  PrivacyBench.Settings settings() {
    return PrivacyBench.Settings.of(modes, sizes, seconds, turns, warmUp, stopping.rule(), output);
  }
}
