package io.securethrift.bench.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The provider benchmark measures real work: every provider and access path gives back the message it sealed. */
class AesGcmProviderBenchmarkTest {
  @ParameterizedTest
  @CsvSource({"jdk,array", "jdk,direct", "conscrypt,array", "conscrypt,direct", "accp,array", "accp,direct"})
  void aMessageSealedAndOpenedComesBackWhole(String provider, String access) throws Exception {
    AesGcmProviderBenchmark benchmark = new AesGcmProviderBenchmark();
    benchmark.provider = provider;
    benchmark.access = access;
    benchmark.setUp();
    // 1 MiB in records of 65,520 bytes: sixteen full ones and a last of 256.
    assertEquals(256, benchmark.sealAndOpenOneMebibyte());
    assertTrue(benchmark.openedWhatWasSealed());
    assertEquals(256, benchmark.sealAndOpenOneMebibyte());
    assertTrue(benchmark.openedWhatWasSealed());
  }
}
