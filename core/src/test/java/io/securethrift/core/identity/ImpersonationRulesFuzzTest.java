package io.securethrift.core.identity;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.ConfigException;
import io.securethrift.core.testing.ParserOracle;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link ImpersonationRules#parse}, the one parser of impersonation rules, whether they come from
 * {@code securethrift.sasl.impersonation.users} and {@code .hosts} or from Accumulo's keys. The input is UTF-8: the
 * user rules, a line feed, the host rules. Only parsing is fuzzed: checking a caller resolves host names, which a
 * fuzzer must not do. Seeds: {@code ImpersonationRulesFuzzTestInputs/parse/}.
 */
class ImpersonationRulesFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void parse(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    int newline = text.indexOf('\n');
    String users = newline < 0 ? text : text.substring(0, newline);
    String hosts = newline < 0 ? "" : text.substring(newline + 1);
    ParserOracle.expectOnly(() -> ImpersonationRules.parse(users, hosts), ConfigException.class);
  }
}
