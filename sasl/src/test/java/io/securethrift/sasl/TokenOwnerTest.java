package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A DIGEST-MD5 connection's principal: the token's owner when the secrets name one, else the token identifier. */
class TokenOwnerTest {
  @Test
  void secretsThatNameOwnersMakeThemThePrincipal() throws Exception {
    DelegationTokenSecrets owning = new DelegationTokenSecrets() {
      @Override
      public Optional<byte[]> passwordFor(byte[] identifier) {
        return SaslConfigs.SECRETS.passwordFor(identifier);
      }

      @Override
      public Optional<String> ownerOf(byte[] identifier) {
        return Arrays.equals(identifier, SaslConfigs.TOKEN.identifier()) ? Optional.of("alice") : Optional.empty();
      }
    };
    assertTrue(whoAmI(owning).contains("principal=alice DIGEST-MD5"), whoAmI(owning));
    String identifier = Base64.getEncoder().encodeToString(SaslConfigs.TOKEN.identifier());
    String plain = whoAmI(SaslConfigs.SECRETS);
    assertTrue(plain.contains("principal=" + identifier + " DIGEST-MD5"), plain);
  }

  private static String whoAmI(DelegationTokenSecrets secrets) throws Exception {
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(SaslConfigs.digestServer()
            .delegationTokenSecrets(secrets).build());
         ClientTransportFactory clientFactory = ClientTransportFactory.create(SaslConfigs.digestClient().build());
         EchoServer server = EchoServer.start(serverFactory);
         SecuredTransport transport = clientFactory.open(SaslConfigs.HOST, server.port())) {
      return EchoServer.client(transport).whoAmI();
    }
  }
}
