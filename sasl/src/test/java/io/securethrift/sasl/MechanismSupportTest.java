package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SaslMechanism;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MechanismSupportTest {
  /** A mechanism added to the configuration without its support would fail at the first connection, not here. */
  @Test
  void everyConfigurableMechanismHasItsSupportAndImplementationsInThisJvm() {
    for (SaslMechanism mechanism : SaslMechanism.values()) {
      MechanismSupport support = MechanismSupport.of(mechanism);
      assertEquals(mechanism, support.mechanism());
      assertEquals(Optional.of(support), MechanismSupport.named(mechanism.mechanismName()));
      assertNotNull(support.clientFactory(), mechanism + " client");
      assertNotNull(support.serverFactory(), mechanism + " server");
    }
  }

  @Test
  void mechanismsSecurethriftDoesNotRunAreNotNamed() {
    for (String name : new String[] {"PLAIN", "CRAM-MD5", "EXTERNAL", "gssapi", ""}) {
      assertTrue(MechanismSupport.named(name).isEmpty(), name);
    }
  }
}
