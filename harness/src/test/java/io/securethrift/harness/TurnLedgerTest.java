package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Turn accounting: what happens between two hand-overs is the turn's side's, and nothing is booked twice or lost. */
class TurnLedgerTest {
  /** A clock and two processes whose CPU the test moves by hand, in nanoseconds. */
  private long now;
  private long clientCpu;
  private long serverCpu;

  private TargetSample sample() {
    return new TargetSample(cpu(clientCpu), cpu(serverCpu));
  }

  private static ProcessSample cpu(long nanos) {
    return new ProcessSample(nanos, nanos, 0, 0, 0, 0, 0, 0);
  }

  private void work(long wall, long client, long server) {
    now += wall;
    clientCpu += client;
    serverCpu += server;
  }

  @Test
  void eachSideIsBookedWhatHappenedInItsOwnTurns() {
    TurnLedger ledger = new TurnLedger(this::sample, () -> now);
    work(1_000, 50, 50); // before the start: nobody's
    ledger.start();
    work(100, 10, 20);
    ledger.endTurn(0);
    work(300, 30, 60);
    ledger.endTurn(1);
    work(200, 20, 40);
    ledger.endTurn(0);

    assertEquals(300, ledger.wallNanos(0));
    assertEquals(300, ledger.wallNanos(1));
    assertEquals(30, ledger.used(0).client().cpuNanos());
    assertEquals(60, ledger.used(0).server().cpuNanos());
    assertEquals(30, ledger.used(1).client().cpuNanos());
    assertEquals(60, ledger.used(1).server().cpuNanos());
    assertEquals(2, ledger.turns(0));
    assertEquals(1, ledger.turns(1));
    assertEquals(clientCpu - 50, ledger.used(0).client().cpuNanos() + ledger.used(1).client().cpuNanos(),
        "every nanosecond since the start is booked to one side");
  }

  @Test
  void alternatingStepsChangeWhoGoesFirstAndBookEachStepToItsSide() throws Exception {
    List<String> order = new ArrayList<>();
    List<TurnLedger.Step> secured = new ArrayList<>();
    List<TurnLedger.Step> baseline = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int step = i;
      secured.add(() -> {
        order.add("secured " + step);
        work(10, 7, 0);
      });
      baseline.add(() -> {
        order.add("baseline " + step);
        work(5, 1, 0);
      });
    }
    TurnLedger ledger = new TurnLedger(this::sample, () -> now);
    ledger.alternate(secured, baseline, 1);

    assertEquals(List.of("baseline 0", "secured 0", "secured 1", "baseline 1", "baseline 2", "secured 2"), order);
    assertEquals(30, ledger.wallNanos(0));
    assertEquals(21, ledger.used(0).client().cpuNanos());
    assertEquals(15, ledger.wallNanos(1));
    assertEquals(3, ledger.used(1).client().cpuNanos());
    assertEquals(3, ledger.turns(0));
    assertEquals(3, ledger.turns(1));
  }

  @Test
  void misuseIsRefused() {
    TurnLedger ledger = new TurnLedger(this::sample, () -> now);
    assertThrows(IllegalStateException.class, () -> ledger.endTurn(0), "a turn cannot end before the start");
    assertThrows(IllegalArgumentException.class, () -> ledger.alternate(List.of(() -> { }), List.of(), 0));
  }
}
