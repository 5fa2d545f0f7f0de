package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.mac.MiniCluster;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.transport.ClientTransportFactory;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** Kerberized Accumulo with {@code rpc.sasl.qop=auth-conf}, and a client that asks for less. */
@MiniCluster
class MacSaslAuthConfInteropTest extends MacSaslInterop {
  @Override
  QualityOfProtection qop() {
    return QualityOfProtection.AUTH_CONF;
  }

  @Test
  void clientWithAWeakerQopIsRefusedWithBothLevelsNamed() {
    try (ClientTransportFactory factory = ClientTransportFactory.create(clientConfig().toBuilder()
        .qop(QualityOfProtection.AUTH_INT).build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> AccumuloRpc.open(factory, mac().tabletServers().get(0)).close());
      assertTrue(e.getMessage().contains("auth-int") && e.getMessage().contains("auth-conf"), e.getMessage());
    }
  }
}
