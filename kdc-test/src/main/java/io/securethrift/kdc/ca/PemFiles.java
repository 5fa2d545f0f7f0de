package io.securethrift.kdc.ca;

import java.nio.file.Path;

/**
 * The two files of a PEM key pair, as TLS stacks that do not read key stores expect them.
 *
 * @param certificateChain the certificate followed by its issuers, as {@code CERTIFICATE} blocks
 * @param privateKey the PKCS#8 private key, {@code PRIVATE KEY} or {@code ENCRYPTED PRIVATE KEY}
 */
public record PemFiles(Path certificateChain, Path privateKey) {}
