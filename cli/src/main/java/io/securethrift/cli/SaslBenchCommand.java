package io.securethrift.cli;

import io.securethrift.bench.sasl.SaslBench;
import picocli.CommandLine.Command;

/**
 * {@code sasl-bench}: Thrift call throughput and connection set-up for none, auth, auth-int, auth-conf and auth-conf
 * with AES-GCM privacy.
 */
@Command(name = "sasl-bench", mixinStandardHelpOptions = true, subcommands = PrivacyBenchCommand.class,
    description = {
        "Thrift echo throughput (1 KiB to 1 MiB) and connection set-up time for none and SASL auth, auth-int,"
            + " auth-conf, auth-conf-gcm (auth-conf with securethrift.sasl.privacy=aes-gcm; echo also"
            + " auth-conf-gcm-conscrypt and auth-conf-gcm-accp, their records sealed by Conscrypt and by the Amazon"
            + " Corretto Crypto Provider), as ratios to none (JMH).",
        "Other arguments go to JMH; the defaults suit a 2-core machine (1 fork, 2 x 1 s warm-up, 3 x 2 s measurement).",
        "'sasl-bench AesGcmProviderBenchmark' measures the AES-GCM providers alone; 'sasl-bench privacy' compares the"
            + " privacy modes in paired rounds with 95 %% intervals."})
final class SaslBenchCommand extends JmhBenchCommand {
  @Override
  String run(String[] args) throws Exception {
    return SaslBench.run(args);
  }
}
