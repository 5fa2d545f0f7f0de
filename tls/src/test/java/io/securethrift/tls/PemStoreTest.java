package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Malformed PEM is an {@link IOException} naming the file, whatever BouncyCastle throws and whatever the file says. */
class PemStoreTest {
  private static final Path FILE = Path.of("/etc/securethrift/ca.pem");

  private static String trustStoreError(String pem) {
    return assertThrows(IOException.class,
        () -> PemStore.trustStore(FILE, pem.getBytes(StandardCharsets.US_ASCII))).getMessage();
  }

  @Test
  void invalidBase64IsReportedAsInvalidPem() {
    assertEquals("/etc/securethrift/ca.pem is not valid PEM: unable to decode base64 string: invalid characters"
        + " encountered in base64 data",
        trustStoreError("-----BEGIN CERTIFICATE-----\nMIIB*gzCC\n-----END CERTIFICATE-----\n"));
  }

  @Test
  void controlCharactersQuotedFromTheFileAreEscaped() {
    assertEquals("/etc/securethrift/ca.pem is not valid PEM: -----END CERT\\u001b[2JIFICATE----- not found",
        trustStoreError("-----BEGIN CERT\u001b[2JIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"));
  }
}
