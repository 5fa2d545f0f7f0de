package io.securethrift.testkit.ca;

import java.nio.file.Path;

/** The two files of a PEM key pair, as TLS stacks that do not read key stores expect them. */
public final class PemFiles {
  private final Path certificateChain;
  private final Path privateKey;

  public PemFiles(Path certificateChain, Path privateKey) {
    this.certificateChain = certificateChain;
    this.privateKey = privateKey;
  }

  /** The certificate followed by its issuers, as {@code CERTIFICATE} blocks. */
  public Path certificateChain() {
    return certificateChain;
  }

  /** The PKCS#8 private key, {@code PRIVATE KEY} or {@code ENCRYPTED PRIVATE KEY}. */
  public Path privateKey() {
    return privateKey;
  }
}
