package io.securethrift.bench.tls;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.bench.Payloads;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Echo calls per second on one open connection: the payload travels to the server and back, framed, through the
 * blocking {@code TThreadPoolServer}, with no TLS, TLS on JSSE or TLS on Conscrypt.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EchoThroughputBenchmark {
  @Param({"none", "jsse", "conscrypt"})
  public String security;

  @Param({"128", "1024", "8192", "65536"})
  public int payloadBytes;

  private EchoFixture fixture;
  private EchoConnection connection;
  private ByteBuffer payload;

  @Setup(Level.Trial)
  public void start() throws Exception {
    TlsBenchSetup setup = TlsBenchSetup.create();
    fixture = EchoFixture.start(setup.config(security, true), setup.config(security, false));
    connection = fixture.connect();
    payload = Payloads.random(payloadBytes);
  }

  @Benchmark
  public ByteBuffer echo() throws TException {
    return connection.echo(payload);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    connection.close();
    fixture.close();
  }
}
