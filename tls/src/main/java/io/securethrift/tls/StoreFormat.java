package io.securethrift.tls;

import io.securethrift.core.StoreType;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Recognises a store's format from its first bytes, since file names lie (a {@code .keystore} may be PKCS#12, a
 * {@code .p12} may be PEM text). The configured or guessed type is only the fallback for content that is none of the
 * three.
 */
final class StoreFormat {
  private static final int JKS_MAGIC = 0xFEEDFEED;
  private static final int DER_SEQUENCE = 0x30;

  private StoreFormat() {}

  static StoreType detect(Path file, byte[] content, StoreType guess) throws IOException {
    if (content.length == 0) {
      throw new IOException(file + " is empty");
    }
    if (content.length >= 4 && ((content[0] & 0xff) << 24 | (content[1] & 0xff) << 16 | (content[2] & 0xff) << 8
        | (content[3] & 0xff)) == JKS_MAGIC) {
      return StoreType.JKS;
    }
    if ((content[0] & 0xff) == DER_SEQUENCE) {
      return StoreType.PKCS12;
    }
    if (new String(content, 0, Math.min(content.length, 4096), java.nio.charset.StandardCharsets.US_ASCII)
        .contains("-----BEGIN ")) {
      return StoreType.PEM;
    }
    return guess;
  }
}
