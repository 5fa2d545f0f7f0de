package io.securethrift.bench.peer;

import io.securethrift.core.testservice.EchoServer;

/** A cell's echo server and what it was built from, released together. */
record CellServer(EchoServer server, AutoCloseable resources) implements AutoCloseable {
  int port() {
    return server.port();
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      resources.close();
    }
  }
}
