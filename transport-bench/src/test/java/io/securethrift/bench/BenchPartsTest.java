package io.securethrift.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.ConfigException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;

/** The shared pieces of the transport benchmarks: payloads and their labels, turn options, JMH defaults. */
class BenchPartsTest {
  @Test
  void sizeLabelsAreWholeMebibytesOrKibibytesElseBytes() {
    assertEquals("1MiB", Payloads.sizeLabel(1 << 20));
    assertEquals("3MiB", Payloads.sizeLabel(3 << 20));
    assertEquals("1023KiB", Payloads.sizeLabel(1023 * 1024));
    assertEquals("64KiB", Payloads.sizeLabel(64 * 1024));
    assertEquals("1536KiB", Payloads.sizeLabel(1536 * 1024));
    assertEquals("1536B", Payloads.sizeLabel(1536));
    assertEquals("100B", Payloads.sizeLabel(100));
    assertEquals("1B", Payloads.sizeLabel(1));
  }

  @Test
  void payloadsAreTheSameRandomBytesForTheSameSize() {
    ByteBuffer a = Payloads.random(1000);
    assertEquals(0, a.position());
    assertEquals(1000, a.remaining());
    byte[] expected = new byte[1000];
    new Random(1000).nextBytes(expected);
    assertArrayEquals(expected, a.array(), "seeded with the size");
    assertEquals(a, Payloads.random(1000));
    ByteBuffer b = Payloads.random(1001);
    assertFalse(a.equals(b.slice(0, 1000)), "another size, other bytes");
    assertEquals(0, Payloads.random(0).remaining());
  }

  @Test
  void turnOptionsRefuseTheFirstUnusableValueNamingItsOption() {
    TurnOptions.check(0.001, 1, 0);
    TurnOptions.check(30, 100, 2.5);
    refused("--seconds: 0.0 is not a positive number of seconds", () -> TurnOptions.check(0, 0, -1));
    refused("--seconds: -1.0 is not a positive number of seconds", () -> TurnOptions.check(-1, 1, 0));
    refused("--seconds: NaN is not a positive number of seconds", () -> TurnOptions.check(Double.NaN, 1, 0));
    refused("--seconds: Infinity is not a positive number of seconds",
        () -> TurnOptions.check(Double.POSITIVE_INFINITY, 1, 0));
    refused("--turns: 0 is not a number of turns (1 or more)", () -> TurnOptions.check(1, 0, -1));
    refused("--turns: -3 is not a number of turns (1 or more)", () -> TurnOptions.check(1, -3, 0));
    refused("--warm-up: -0.5 is not a number of seconds (0 or more)", () -> TurnOptions.check(1, 1, -0.5));
    refused("--warm-up: NaN is not a number of seconds (0 or more)", () -> TurnOptions.check(1, 1, Double.NaN));
    refused("--warm-up: Infinity is not a number of seconds (0 or more)",
        () -> TurnOptions.check(1, 1, Double.POSITIVE_INFINITY));
  }

  @Test
  void jmhDefaultsFillWhatTheArgumentsLeaveOut() throws Exception {
    Options defaults = JmhOptions.of("EchoThroughputBenchmark");
    assertEquals(List.of("EchoThroughputBenchmark"), defaults.getIncludes());
    assertEquals(1, defaults.getForkCount().get());
    assertEquals(2, defaults.getWarmupIterations().get());
    assertEquals(TimeValue.seconds(1), defaults.getWarmupTime().get());
    assertEquals(3, defaults.getMeasurementIterations().get());
    assertEquals(TimeValue.seconds(2), defaults.getMeasurementTime().get());
    assertEquals(List.of("-Xmx1g"), new ArrayList<>(defaults.getJvmArgsAppend().get()));
  }

  @Test
  void jmhArgumentsWinOverTheDefaults() throws Exception {
    Options given = JmhOptions.of("EchoThroughputBenchmark", "-f", "2", "-i", "5", "-w", "3s", "-jvmArgsAppend",
        "-Xmx4g", "HandshakeBenchmark");
    assertEquals(List.of("HandshakeBenchmark"), given.getIncludes(), "named benchmarks replace the default");
    assertEquals(2, given.getForkCount().get());
    assertEquals(5, given.getMeasurementIterations().get());
    assertEquals(TimeValue.seconds(3), given.getWarmupTime().get());
    assertEquals(2, given.getWarmupIterations().get(), "left out: the default");
    assertEquals(TimeValue.seconds(2), given.getMeasurementTime().get(), "left out: the default");
    assertEquals(List.of("-Xmx4g"), new ArrayList<>(given.getJvmArgsAppend().get()));
    assertThrows(CommandLineOptionException.class, () -> JmhOptions.of("X", "-f", "two"));
  }

  private static void refused(String message, Executable check) {
    assertEquals(message, assertThrows(ConfigException.class, check).getMessage());
  }
}
