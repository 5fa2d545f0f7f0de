package io.securethrift.bench.sasl;

import io.securethrift.harness.BenchMode;
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
 * End-to-end Thrift echo calls over one connection per mode: the plain framed baseline and GSSAPI at each QOP, plus
 * auth-conf with AES-GCM privacy, the JDK's cipher ({@code sasl-auth-conf-gcm}), Conscrypt's
 * ({@code sasl-auth-conf-gcm-conscrypt}) or the Amazon Corretto Crypto Provider's
 * ({@code sasl-auth-conf-gcm-accp}), on the same blocking server. Score is calls per second; times the payload size
 * it is the payload throughput each way.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SaslThroughputBenchmark {
  @Param({"none", "sasl-auth", "sasl-auth-int", "sasl-auth-conf", "sasl-auth-conf-gcm", "sasl-auth-conf-gcm-conscrypt",
      "sasl-auth-conf-gcm-accp"})
  public String mode;

  @Param({"1024", "65536", "1048576"})
  public int size;

  private SaslKerberos kerberos;
  private EchoFixture fixture;
  private EchoConnection connection;
  private ByteBuffer payload;

  @Setup(Level.Trial)
  public void start() throws Exception {
    kerberos = new SaslKerberos();
    BenchMode level = BenchMode.parse("mode", mode);
    fixture = EchoFixture.start(kerberos.server(level), kerberos.client(level));
    connection = fixture.connect();
    payload = Payloads.random(size);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    connection.close();
    fixture.close();
    kerberos.close();
  }

  @Benchmark
  public ByteBuffer echo() throws TException {
    return connection.echo(payload);
  }
}
