package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.transport.ClientTransportFactory;
import org.apache.accumulo.core.clientImpl.thrift.SecurityErrorCode;
import org.apache.accumulo.core.clientImpl.thrift.ThriftSecurityException;
import org.apache.accumulo.core.trace.thrift.TInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** securethrift's plain framed transport calling a real Accumulo 2.1 tablet server. */
@MiniCluster
class MacPlainInteropTest {
  private static final Logger LOG = LoggerFactory.getLogger(MacPlainInteropTest.class);
  private static MiniAccumulo mac;
  private static ClientTransportFactory factory;

  @BeforeAll
  static void start() throws Exception {
    mac = MiniAccumulo.start(config -> { });
    LOG.warn("MiniAccumuloCluster (none) started in {} ms", mac.startTime().toMillis());
    SecurityConfig config = AccumuloSecurityConfig.fromClientProperties(mac.clientProperties());
    assertEquals(SecurityMode.NONE, config.mode());
    factory = ClientTransportFactory.create(config);
  }

  @AfterAll
  static void stop() throws Exception {
    if (factory != null) {
      factory.close();
    }
    if (mac != null) {
      mac.close();
    }
  }

  @Test
  void siteFileOfTheClusterReadsAsPlain() {
    assertEquals(SecurityMode.NONE, AccumuloSecurityConfig.fromAccumuloProperties(mac.accumuloProperties()).mode());
  }

  @Test
  void tabletServerAnswersAndAuthenticates() throws Exception {
    try (AccumuloRpc rpc = AccumuloRpc.open(factory, mac.tabletServers().get(0))) {
      assertEquals(mac.instanceId().canonical(), rpc.client().getInstanceId());
      assertTrue(rpc.client().authenticate(new TInfo(), mac.credentials("root", MiniAccumulo.ROOT_PASSWORD)));
      ThriftSecurityException wrong = assertThrows(ThriftSecurityException.class,
          () -> rpc.client().authenticate(new TInfo(), mac.credentials("root", "wrong")));
      assertEquals(SecurityErrorCode.BAD_CREDENTIALS, wrong.getCode());
      assertTrue(rpc.client().listLocalUsers(new TInfo(), mac.credentials("root", MiniAccumulo.ROOT_PASSWORD))
          .contains("root"), "the connection stays usable after a rejected call");
    }
  }
}
