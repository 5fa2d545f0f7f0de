package io.securethrift.tls;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import io.securethrift.core.testing.ParserOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

/**
 * Fuzzes loading key material through {@link StoreLoader}: format detection, then PEM ({@link PemStore}: certificate
 * chains, PKCS#8 keys plain or encrypted, OpenSSL EC/RSA keys) or a JDK key store. The input is the file's content;
 * a bad file may only raise the {@link IOException} or {@link GeneralSecurityException} the loader documents, naming
 * the file. Seeds: {@code StoreLoaderFuzzTestInputs/<method>/} (throwaway test keys).
 */
class StoreLoaderFuzzTest {
  /** Rewritten for every input. Named .pem with no .key beside it, so only the input is read. */
  private static final Path FILE;
  private static final StoreLocation TRUST_STORE;
  /** With the password of the encrypted seeds, so decryption is reached. */
  private static final StoreLocation KEY_STORE;

  static {
    try {
      Path dir = Files.createTempDirectory("securethrift-store-fuzz");
      dir.toFile().deleteOnExit();
      FILE = Files.createFile(dir.resolve("store.pem"));
      FILE.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS)
        .trustStore(FILE, StoreType.PEM, null).keyStore(FILE, StoreType.PEM, Secret.of("changeit")).build();
    TRUST_STORE = config.tls().trustStore().orElseThrow();
    KEY_STORE = config.tls().keyStore().orElseThrow();
  }

  @FuzzTest(maxDuration = "60s")
  void trustStore(byte[] content) throws IOException {
    Files.write(FILE, content);
    ParserOracle.expectOnly(() -> StoreLoader.trustStore(TRUST_STORE), IOException.class,
        GeneralSecurityException.class);
  }

  @FuzzTest(maxDuration = "60s")
  void keyStore(byte[] content) throws IOException {
    Files.write(FILE, content);
    ParserOracle.expectOnly(() -> StoreLoader.keyManager(KEY_STORE), IOException.class, GeneralSecurityException.class);
  }
}
