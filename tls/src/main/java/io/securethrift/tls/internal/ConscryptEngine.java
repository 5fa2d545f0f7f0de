package io.securethrift.tls.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.internal.JsseEngine;
import io.securethrift.core.spi.TlsEngineProvider;
import java.security.Provider;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Engine {@code conscrypt}: Conscrypt (BoringSSL), asked for by name ({@code SSLContext.getInstance("TLS",
 * conscrypt)}) and never added to the JVM's provider list: inserted first it breaks JSSE's own start-up, and as a
 * default it would change TLS for every library in the process. {@code auto} prefers it where it loads.
 */
public final class ConscryptEngine implements TlsEngineProvider {
  /** For the service loader. */
  public ConscryptEngine() {}

  @Override
  public String token() {
    return "conscrypt";
  }

  @Override
  public String description() {
    return ConscryptProvider.unavailableReason().isPresent() ? "Conscrypt, BoringSSL"
        : "Conscrypt " + ConscryptProvider.version() + ", BoringSSL";
  }

  @Override
  public OptionalInt autoRank() {
    // Before jsse (100): where its native library loads, its handshakes and records cost less CPU.
    return OptionalInt.of(10);
  }

  @Override
  public Optional<String> unavailableReason() {
    return ConscryptProvider.unavailableReason().map(reason -> "its native library does not load (" + reason + ")");
  }

  @Override
  public String fix() {
    return "the Conscrypt jar securethrift-tls brings (org.conscrypt:conscrypt-openjdk-uber) has no native library"
        + " that loads on this platform; use jsse, or auto, which takes jsse where Conscrypt does not run";
  }

  /**
   * BoringSSL staples what it is handed, but Conscrypt 2.9.0 hands it a response only from a package-private field of
   * its engine parameters that no public method sets ({@code SSLParametersImpl.setOCSPResponse}); reaching it by
   * reflection would break silently with any Conscrypt release.
   */
  @Override
  public Optional<String> serverStaplingRefusal() {
    return Optional.of("Conscrypt " + ConscryptProvider.version() + " has no public way to give a server the OCSP"
        + " response to staple; use " + ConfigProperty.TLS_ENGINE.key() + "=jsse with -D" + JsseEngine.SERVER_STAPLING
        + "=true, or set this to false");
  }

  @Override
  public Optional<Provider> provider() {
    return Optional.of(ConscryptProvider.instance());
  }
}
