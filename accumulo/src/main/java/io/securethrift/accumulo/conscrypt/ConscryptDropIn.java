package io.securethrift.accumulo.conscrypt;

import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.spi.DropIn;

/**
 * The {@code conscrypt} drop-in: {@link ConscryptFirstProvider} first, so that unmodified code asking for an
 * {@code SSLContext} gets Conscrypt's. Used by {@link DropInSecurityFile}.
 */
public final class ConscryptDropIn implements DropIn {
  /** The name that chooses it or leaves it out. */
  public static final String NAME = "conscrypt";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void addTo(DropInSecurityFile.Builder file) {
    file.providerFirst(ConscryptFirstProvider.class, "answers SSLContext requests only, with Conscrypt's; everything"
        + " else (and SSLContext.getInstance(\"TLS\", \"SunJSSE\")) is still the JDK's");
  }
}
