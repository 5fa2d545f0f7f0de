package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class WorkDirectoryTest {
  @Test
  void closingDeletesEverythingInItAndTwiceIsFine() throws Exception {
    Path path;
    try (WorkDirectory work = WorkDirectory.create("work-directory-test-")) {
      path = work.path();
      assertTrue(path.getFileName().toString().startsWith("work-directory-test-"), path.toString());
      Files.writeString(Files.createDirectories(work.resolve("a/b")).resolve("c.txt"), "x", StandardCharsets.UTF_8);
      work.close();
      assertFalse(Files.exists(path), "deleted with its contents");
    }
    assertFalse(Files.exists(path));
  }
}
