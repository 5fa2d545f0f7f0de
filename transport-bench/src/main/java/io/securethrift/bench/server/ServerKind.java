package io.securethrift.bench.server;

import io.securethrift.core.ConfigException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The servers compared: the non-blocking server, the same with its calls run on the event loops
 * ({@code NettyThriftServer.Builder#callsOnEventLoop}), and libthrift's {@code TThreadPoolServer} built with
 * securethrift's {@code ServerTransportFactory}, capped at 64 workers (a thread per connection; the 65th connection is
 * closed) and uncapped (a thread for every connection).
 */
enum ServerKind {
  NONBLOCKING("nonblocking", 0),
  NONBLOCKING_INLINE("nonblocking-inline", 0),
  THREADPOOL_64("threadpool-64", 64),
  THREADPOOL("threadpool", Integer.MAX_VALUE);

  private final String token;
  private final int maxWorkers;

  ServerKind(String token, int maxWorkers) {
    this.token = token;
    this.maxWorkers = maxWorkers;
  }

  String token() {
    return token;
  }

  /** Whether this is the non-blocking server, calls inline or not. */
  boolean nonblocking() {
    return maxWorkers == 0;
  }

  /** Whether {@code token} names a non-blocking server. */
  static boolean nonblocking(String token) {
    return parse(token).nonblocking();
  }

  /** The thread-pool server's worker cap; unused for the non-blocking server. */
  int maxWorkers() {
    return maxWorkers;
  }

  static ServerKind parse(String text) {
    return parse("server", text);
  }

  static ServerKind parse(String option, String text) {
    return Arrays.stream(values()).filter(k -> k.token.equals(text)).findFirst().orElseThrow(() ->
        new ConfigException(option, "'" + text + "' is not a server; one of " + Arrays.stream(values())
            .map(ServerKind::token).collect(Collectors.joining(", "))));
  }

  @Override
  public String toString() {
    return token;
  }
}
