package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineMemoryTest {
  @TempDir
  Path dir;

  @Test
  void readsMemAvailableInKibibytes() throws IOException {
    Path meminfo = Files.writeString(dir.resolve("meminfo"), "MemTotal:       24554564 kB\n"
        + "MemFree:        20000000 kB\nMemAvailable:   22000000 kB\nBuffers:            1234 kB\n");
    assertEquals(OptionalLong.of(22_000_000L * 1024), MachineMemory.memAvailable(meminfo));
  }

  @Test
  void noEstimateWithoutTheLineOrTheFileOrANumber() throws IOException {
    assertEquals(OptionalLong.empty(), MachineMemory.memAvailable(
        Files.writeString(dir.resolve("old-kernel"), "MemTotal: 1000 kB\nMemFree: 500 kB\n")));
    assertEquals(OptionalLong.empty(), MachineMemory.memAvailable(dir.resolve("absent")));
    assertEquals(OptionalLong.empty(), MachineMemory.memAvailable(
        Files.writeString(dir.resolve("garbled"), "MemAvailable: lots kB\n")));
    assertEquals(OptionalLong.empty(), MachineMemory.memAvailable(
        Files.writeString(dir.resolve("negative"), "MemAvailable: -5 kB\n")));
    assertEquals(OptionalLong.empty(), MachineMemory.memAvailable(
        Files.writeString(dir.resolve("overflow"), "MemAvailable: 9223372036854775807 kB\n")));
  }

  @Test
  void thisMachinesFigureIsPositiveWhereTheKernelGivesOne() {
    OptionalLong available = MachineMemory.availableBytes();
    if (Files.isReadable(Path.of("/proc/meminfo"))) {
      assertTrue(available.getAsLong() > 0, "MemAvailable " + available);
    } else {
      assertTrue(available.isEmpty());
    }
  }
}
