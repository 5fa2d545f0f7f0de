package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The meminfo reader on any file content: it gives a figure of zero or more bytes, or no estimate; nothing escapes,
 * so a run on a machine whose kernel writes something unexpected starts with its workers' largest heaps.
 */
class MachineMemoryFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void memAvailable(byte[] input) throws IOException {
    Path file = Files.createTempFile("meminfo", "");
    try {
      Files.write(file, input);
      OptionalLong available = MachineMemory.memAvailable(file);
      assertTrue(available.isEmpty() || available.getAsLong() >= 0, "a negative figure: " + available);
    } finally {
      Files.delete(file);
    }
  }
}
