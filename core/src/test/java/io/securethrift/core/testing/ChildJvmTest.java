package io.securethrift.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How a talking child's failures read: the benchmarks' worker JVMs are talking children. */
class ChildJvmTest {
  /** Echoes each command's kind back as an OK record's "echo" field. */
  public static void main(String[] args) throws IOException {
    ChildJvm.serve(command -> LineRecord.of("OK").with("echo", command.kind()));
  }

  @Test
  void aChildKilledBySigkillIsNamedWithItsLikelyKillerNotAsAClosedStream() throws Exception {
    try (ChildJvm child = ChildJvm.builder(ChildJvmTest.class).name("echo worker").talk().start()) {
      assertEquals("PING", child.call(LineRecord.of("PING")).get("echo"));
      // As the kernel's out-of-memory killer ends a process: SIGKILL, nothing written on the way out.
      assertTrue(child.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS));
      IOException e = assertThrows(IOException.class, () -> child.call(LineRecord.of("PING")));
      assertTrue(e.getMessage().startsWith("cannot send PING to echo worker: it exited with code 137 (SIGKILL: most"
          + " likely the kernel's out-of-memory killer"), e.getMessage());
    }
  }
}
