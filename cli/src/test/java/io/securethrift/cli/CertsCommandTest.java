package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class CertsCommandTest {

  @TempDir Path dir;
  /** Where the password files go, apart from the output directory. */
  @TempDir Path secrets;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return new CommandLine(new CertsCommand())
        .setOut(new PrintWriter(out))
        .setErr(new PrintWriter(err))
        .execute(args);
  }

  @Test
  void writesCaAndNodesInAllFormats() throws Exception {
    int exit =
        run("--dir", dir.toString(), "--nodes", "2", "--key-type", "ec", "--format", "all",
            "--password-file", passwordFile("s3cret-pw").toString(), "--hostname", "zk.example",
            "--san", "10.1.2.3");

    assertEquals(0, exit, err::toString);
    Set<String> expected =
        Set.of("ca.crt", "truststore.p12", "truststore.jks",
            "node1.p12", "node1.jks", "node1.crt", "node1.key",
            "node2.p12", "node2.jks", "node2.crt", "node2.key");
    assertEquals(expected, fileNames(dir));
    List<String> lines = out.toString().lines().toList();
    assertEquals(expected.size(), lines.size());
    for (String name : expected) {
      assertTrue(lines.contains("wrote " + dir.resolve(name).toAbsolutePath()), out::toString);
    }
    assertFalse(out.toString().contains("s3cret-pw"));

    X509Certificate ca = readPem(dir.resolve("ca.crt"));
    KeyStore node2 = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve("node2.p12"))) {
      node2.load(in, "s3cret-pw".toCharArray());
    }
    X509Certificate cert = (X509Certificate) node2.getCertificate("node2");
    cert.verify(ca.getPublicKey());
    assertEquals("CN=node2", cert.getSubjectX500Principal().getName());
    assertEquals("EC", cert.getPublicKey().getAlgorithm());
    Set<String> sans =
        cert.getSubjectAlternativeNames().stream()
            .map(n -> n.get(1).toString())
            .collect(Collectors.toSet());
    assertEquals(Set.of("zk.example", "10.1.2.3"), sans);
    assertTrue(Files.readString(dir.resolve("node1.key")).contains("ENCRYPTED PRIVATE KEY"));
  }

  @Test
  void pemWithoutPasswordWritesUnencryptedKeys() throws Exception {
    int exit = run("--dir", dir.resolve("pem").toString(), "--format", "pem");

    assertEquals(0, exit, err::toString);
    assertEquals(Set.of("ca.crt", "node1.crt", "node1.key"), fileNames(dir.resolve("pem")));
    assertTrue(
        Files.readString(dir.resolve("pem/node1.key")).startsWith("-----BEGIN PRIVATE KEY-----"));
  }

  /** ECDSA P-256 unless asked otherwise, the CA and the nodes alike; RSA 2048 on request. */
  @ParameterizedTest
  @CsvSource({"'', EC, 256", "rsa, RSA, 2048", "EC, EC, 256"})
  void keysAreEcdsaP256ByDefaultAndRsa2048OnRequest(String option, String algorithm, int bits) throws Exception {
    List<String> args = new ArrayList<>(List.of("--dir", dir.toString(), "--format", "pem"));
    if (!option.isEmpty()) {
      args.addAll(List.of("--key-type", option));
    }
    assertEquals(0, run(args.toArray(String[]::new)), err::toString);
    for (String name : List.of("ca.crt", "node1.crt")) {
      PublicKey key = readPem(dir.resolve(name)).getPublicKey();
      assertEquals(algorithm, key.getAlgorithm(), name);
      assertEquals(bits, key instanceof RSAKey rsa ? rsa.getModulus().bitLength()
          : ((ECKey) key).getParams().getOrder().bitLength(), name);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "--nodes, 0, --nodes must be at least 1",
    "--format, pfx, --format must be pkcs12, jks, pem or all",
    "--key-type, dsa, --key-type must be ec or rsa",
    "--key-type, rsa_1024, --key-type must be ec or rsa",
    "--days, 0, --days must be at least 1",
    "--nodes, many, --nodes",
  })
  void badInputIsAUsageError(String option, String value, String message) throws Exception {
    int exit = run("--dir", dir.toString(), "--password-file", passwordFile("pw").toString(), option, value);

    assertEquals(2, exit);
    assertTrue(err.toString().contains(message), err::toString);
    assertEquals(Set.of(), fileNames(dir));
  }

  @Test
  void keyStoresNeedAPassword() throws Exception {
    assertEquals(2, run("--dir", dir.toString(), "--format", "jks"));

    assertTrue(err.toString().contains("pkcs12 and jks output need a store password: --password (prompts),"
        + " --password-file or --password-env"), err::toString);
    assertEquals(Set.of(), fileNames(dir));
  }

  @Test
  void directoryIsRequired() {
    assertEquals(2, run("--password-file", passwordFile("pw").toString()));

    assertTrue(err.toString().contains("--dir"), err::toString);
  }

  /** Keys and stores were written with the umask, readable by every local user; now by their owner alone. */
  @Test
  void everyFileAndTheDirectoryItCreatesAreTheOwnersAlone() throws Exception {
    Path created = dir.resolve("new").resolve("certs");
    assertEquals(0, run("--dir", created.toString(), "--format", "all", "--password-file",
        passwordFile("pw").toString()), err::toString);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(created)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(created.getParent())));
    for (String name : fileNames(created)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(created.resolve(name))),
          name);
    }
  }

  @Test
  void aPasswordFromAMissingVariableIsAUsageError() throws Exception {
    assertEquals(2, run("--dir", dir.toString(), "--password-env", "SECURETHRIFT_TEST_UNSET_VARIABLE"));
    assertTrue(err.toString().contains("the environment variable SECURETHRIFT_TEST_UNSET_VARIABLE is not set"),
        err::toString);
    assertEquals(Set.of(), fileNames(dir));
  }

  private Path passwordFile(String password) {
    try {
      return Files.writeString(secrets.resolve("password-" + password), password + "\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Set<String> fileNames(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  private static X509Certificate readPem(Path file) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }
}
