package io.securethrift.ingest.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The line protocol shared by the benchmark's worker JVMs. */
final class Worker {
  static final String ERROR = "ERROR";

  private Worker() {}

  /** Answers each input line with {@code handler}'s reply until the input closes; a failure answers ERROR. */
  static void serve(LineHandler handler) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      try {
        out.println(handler.handle(line.trim().split(" ")));
      } catch (Exception e) {
        out.println(ERROR + " " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
  }

  @FunctionalInterface
  interface LineHandler {
    String handle(String[] words) throws Exception;
  }
}
