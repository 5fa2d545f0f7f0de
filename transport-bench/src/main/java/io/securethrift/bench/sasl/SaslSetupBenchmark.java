package io.securethrift.bench.sasl;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.harness.BenchMode;
import java.util.concurrent.TimeUnit;
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
 * Connection set-up: TCP connect plus the mode's handshake, then close. The first connection in the trial fetches
 * the service ticket; every measured one reuses it from the login's subject, as a long-running client does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SaslSetupBenchmark {
  @Param({"none", "sasl-auth", "sasl-auth-conf", "sasl-auth-conf-gcm"})
  public String mode;
  /**
   * Whether a SASL server reads the end of the client's service ticket from its AP-REQ, to close the connection then
   * ({@code securethrift.server.kerberos.close.at.ticket.end}, default true); {@code -p closeAtTicketEnd=true,false}
   * measures what that costs a connection.
   */
  @Param({"true"})
  public boolean closeAtTicketEnd;

  private SaslKerberos kerberos;
  private EchoFixture fixture;

  @Setup(Level.Trial)
  public void start() throws Exception {
    kerberos = new SaslKerberos();
    BenchMode level = BenchMode.parse("mode", mode);
    SecurityConfig server = kerberos.server(level);
    if (level.sasl()) {
      server = server.toBuilder().closeAtTicketEnd(closeAtTicketEnd).build();
    }
    fixture = EchoFixture.start(server, kerberos.client(level));
    fixture.connect().close();
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    fixture.close();
    kerberos.close();
  }

  @Benchmark
  public PeerIdentity connect() throws Exception {
    try (EchoConnection connection = fixture.connect()) {
      return connection.peerIdentity();
    }
  }
}
