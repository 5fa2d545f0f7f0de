package io.securethrift.core.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The identity and audit operations reach the transport package only: nobody else takes or replaces them. */
class SharedAccessTest {
  @Test
  void onlyTheTransportPackageTakesThem() {
    assertThrows(IllegalCallerException.class, () -> SharedAccess.identity());
    assertThrows(IllegalCallerException.class, () -> SharedAccess.audit());
    // A method reference handed to other code is still this class's call.
    assertThrows(IllegalCallerException.class, SharedAccess::identity);
  }

  @Test
  void onlyTheOwnersInstallThem() {
    assertThrows(IllegalCallerException.class, () -> SharedAccess.installAudit((config, clock) -> null));
  }
}
