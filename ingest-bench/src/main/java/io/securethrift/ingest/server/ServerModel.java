package io.securethrift.ingest.server;

import io.securethrift.core.ConfigException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which Thrift server runs the ingest service. */
public enum ServerModel {
  /** libthrift's {@code TThreadPoolServer}: a thread per connection, Accumulo's SSL and SASL server model. */
  THREADPOOL,
  /** securethrift's netty-server: connections wait on event loops, calls run on a bounded worker pool. */
  NONBLOCKING;

  public String token() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a {@code --server} value, naming the accepted ones when it is none of them. */
  public static ServerModel parse(String option, String text) {
    for (ServerModel model : values()) {
      if (model.token().equals(text)) {
        return model;
      }
    }
    throw new ConfigException(option, "'" + text + "' is not accepted; accepted values: "
        + Arrays.stream(values()).map(ServerModel::token).collect(Collectors.joining(", ")));
  }
}
