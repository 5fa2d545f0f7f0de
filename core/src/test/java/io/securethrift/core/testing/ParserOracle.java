package io.securethrift.core.testing;

import java.util.Arrays;

/**
 * What every fuzz target checks, whatever it parses: the parser returns, or throws one of the exceptions it documents
 * with a message fit for one log line (present, and free of CR, LF and ESC, so input cannot forge log lines or
 * terminal sequences). Anything else (an undocumented exception, {@link OutOfMemoryError}, {@link StackOverflowError})
 * escapes to the fuzzer as a finding. Targets reading from a peer also bound what one input may cost in heap.
 */
public final class ParserOracle {
  /** Allowance for per-call set-up (protocol objects, first frame buffer, SASL mechanism state) on top of the input. */
  public static final long FIXED_ALLOWANCE = 1 << 20;
  /** A reader may copy what arrived a few times (frame, decoded payload, reply); more means it trusted a length. */
  public static final int COPIES_OF_INPUT = 4;

  /** The code under test, reading one input. */
  @FunctionalInterface
  public interface Parse {
    void run() throws Exception;
  }

  private ParserOracle() {}

  /** Runs {@code parse}, accepting only {@code documented} exceptions with a clean message. */
  @SafeVarargs
  public static void expectOnly(Parse parse, Class<? extends Exception>... documented) {
    try {
      parse.run();
    } catch (Exception e) {
      check(e, documented);
    }
  }

  /**
   * Like {@link #expectOnly}, and the thread may allocate at most {@link #COPIES_OF_INPUT} times the input plus
   * {@link #FIXED_ALLOWANCE} while parsing. An input over the limit is parsed a second time before it counts as a
   * finding: the first time a code path runs, class loading (and, while fuzzing, instrumenting the new classes)
   * allocates on this thread, whereas trusting a length costs the same every time. {@code parse} must therefore
   * build its state afresh on each run.
   */
  @SafeVarargs
  public static void expectOnlyWithinAllocation(int inputLength, Parse parse,
      Class<? extends Exception>... documented) {
    long limit = (long) COPIES_OF_INPUT * inputLength + FIXED_ALLOWANCE;
    if (allocatedBy(parse, documented) <= limit) {
      return;
    }
    long allocated = allocatedBy(parse, documented);
    if (allocated > limit) {
      throw new AssertionError("allocated " + allocated + " bytes reading a " + inputLength + "-byte input (limit "
          + limit + "): a length or count in the input was trusted");
    }
  }

  @SafeVarargs
  private static long allocatedBy(Parse parse, Class<? extends Exception>... documented) {
    long before = AllocationMeter.allocatedBytes();
    expectOnly(parse, documented);
    return AllocationMeter.allocatedBytes() - before;
  }

  private static void check(Exception e, Class<? extends Exception>[] documented) {
    if (Arrays.stream(documented).noneMatch(type -> type.isInstance(e))) {
      if (e instanceof RuntimeException) {
        // Rethrown as is, so the fuzzer tells findings apart by where they were thrown.
        throw (RuntimeException) e;
      }
      throw new AssertionError("undocumented " + e.getClass().getName() + ": " + e.getMessage(), e);
    }
    String message = e.getMessage();
    if (message == null) {
      throw new AssertionError(e.getClass().getName() + " without a message", e);
    }
    if (message.indexOf('\r') >= 0 || message.indexOf('\n') >= 0 || message.indexOf('\u001b') >= 0) {
      throw new AssertionError("message carries raw control characters from the input: "
          + message.replace("\r", "\\r").replace("\n", "\\n").replace("\u001b", "\\u001b"), e);
    }
  }
}
