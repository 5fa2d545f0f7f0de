package io.securethrift.bench.peer;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Whose client talks to whose server in a cell. Beside the two like-for-like pairs, the crossed pairs tell where a
 * difference comes from: a gap {@code our-client} shares is the client's, one {@code our-server} shares the server's.
 */
enum Pairing {
  LIBTHRIFT("libthrift", false, false),
  SECURETHRIFT("securethrift", true, true),
  OUR_CLIENT("our-client", true, false),
  OUR_SERVER("our-server", false, true);

  /** What every other pairing is measured against. */
  static final Pairing BASELINE = LIBTHRIFT;

  private final String label;
  private final boolean ourClient;
  private final boolean ourServer;

  Pairing(String label, boolean ourClient, boolean ourServer) {
    this.label = label;
    this.ourClient = ourClient;
    this.ourServer = ourServer;
  }

  String label() {
    return label;
  }

  boolean ourClient() {
    return ourClient;
  }

  boolean ourServer() {
    return ourServer;
  }

  static Pairing of(String label) {
    return Arrays.stream(values()).filter(p -> p.label.equals(label)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("'" + label + "' is not a pairing; accepted: "
            + Arrays.stream(values()).map(Pairing::label).collect(Collectors.joining(", "))));
  }
}
