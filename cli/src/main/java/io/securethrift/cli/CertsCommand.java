package io.securethrift.cli;

import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.LeafCertificateBuilder;
import io.securethrift.testkit.ca.PemFiles;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code certs}: writes a fresh CA and N node certificates into a directory without prompting, the
 * job a ZooKeeper or Accumulo TLS set-up otherwise does by hand with keytool/openssl scripts.
 *
 * <p>Files, for each requested format: {@code ca.crt} (PEM), {@code truststore.p12}/{@code .jks}
 * (the CA), and per node {@code node<i>.p12}/{@code .jks} (key entry alias {@code node<i>}) or
 * {@code node<i>.crt} + {@code node<i>.key} (PKCS#8, encrypted when a password is given).
 * Existing files of those names are overwritten. Every file, and a directory the command creates, is its owner's alone.
 * The password is prompted for or read from a file or the environment, never taken from the command line, and never
 * printed.
 */
@Command(
    name = "certs",
    mixinStandardHelpOptions = true,
    description = "Write a test CA and node certificates (PKCS12, JKS, PEM) into a directory.")
public final class CertsCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(names = "--dir", required = true, description = "Directory to write into (created).")
  private Path dir;

  @Option(
      names = "--nodes",
      description = "Number of node certificates (default: ${DEFAULT-VALUE}).")
  private int nodes = 1;

  @Option(
      names = {"--hostname", "--san"},
      paramLabel = "NAME",
      description =
          "Subject alternative name (DNS name or IP) for every node; repeatable"
              + " (default: localhost and 127.0.0.1).")
  private List<String> subjectAlternativeNames = new ArrayList<>();

  @Option(
      names = "--key-type",
      paramLabel = "ec|rsa",
      description = "Key type of the CA and the nodes: ec (ECDSA on P-256) or rsa (RSA 2048)"
          + " (default: ${DEFAULT-VALUE}: several times cheaper full TLS handshakes, see docs/tls.md).")
  private String keyType = "ec";

  @Option(
      names = "--format",
      paramLabel = "pkcs12|jks|pem|all",
      description = "Output format (default: ${DEFAULT-VALUE}).")
  private String format = "all";

  @ArgGroup(exclusive = true)
  private PasswordSource passwordSource;

  /**
   * Where the store password comes from: never the command line itself, which other users see in {@code ps} and the
   * shell keeps in its history.
   */
  static final class PasswordSource {
    @Option(names = "--password", interactive = true, arity = "0",
        description = "Prompt for the password of key stores and trust stores (required for pkcs12, jks, all; also"
            + " encrypts PEM keys when given).")
    char[] prompted;

    @Option(names = "--password-file", paramLabel = "FILE",
        description = "Read that password from the first line of FILE.")
    Path file;

    @Option(names = "--password-env", paramLabel = "VARIABLE",
        description = "Read that password from the environment variable VARIABLE.")
    String variable;
  }

  private char[] password;

  @Option(
      names = "--days",
      description = "Validity of node certificates in days (default: ${DEFAULT-VALUE}).")
  private int days = 365;

  @Override
  public Integer call() throws IOException {
    KeyType type = parseKeyType();
    Output output = parseFormat();
    password = readPassword();
    validate(output);

    OwnerOnlyFiles.createDirectories(dir);
    TestCertificateAuthority ca =
        TestCertificateAuthority.create(TestCertificateAuthority.DEFAULT_COMMON_NAME, type);
    List<Path> written = new ArrayList<>();
    written.add(ca.writeCaPem(dir));
    for (KeyStoreFormat store : output.stores()) {
      written.add(ca.writeTrustStore(dir, store, password));
    }
    for (int i = 1; i <= nodes; i++) {
      String name = "node" + i;
      IssuedCertificate node = leaf(ca, name, type).issue();
      for (KeyStoreFormat store : output.stores()) {
        written.add(node.writeKeyStore(dir, name, store, password));
      }
      if (output.pem()) {
        PemFiles pem = node.writePem(dir, name, password);
        written.add(pem.certificateChain());
        written.add(pem.privateKey());
      }
    }
    for (Path file : written) {
      OwnerOnlyFiles.restrict(file);
    }
    PrintWriter out = spec.commandLine().getOut();
    written.forEach(path -> out.println("wrote " + path.toAbsolutePath()));
    out.flush();
    return 0;
  }

  private char[] readPassword() throws IOException {
    if (passwordSource == null) {
      return null;
    }
    if (passwordSource.file != null) {
      if (!Files.isReadable(passwordSource.file)) {
        throw usage("--password-file: " + passwordSource.file + " cannot be read");
      }
      String first = Files.readAllLines(passwordSource.file).stream().findFirst().orElse("");
      return first.toCharArray();
    }
    if (passwordSource.variable != null) {
      String value = System.getenv(passwordSource.variable);
      if (value == null) {
        throw usage("--password-env: the environment variable " + passwordSource.variable + " is not set");
      }
      return value.toCharArray();
    }
    return passwordSource.prompted;
  }

  /** What {@code --format} asks for: key store formats, and whether PEM files too. */
  private record Output(List<KeyStoreFormat> stores, boolean pem) {}

  private LeafCertificateBuilder leaf(TestCertificateAuthority ca, String name, KeyType type) {
    LeafCertificateBuilder leaf =
        ca.leaf().commonName(name).keyType(type).validFor(Duration.ofDays(days));
    subjectAlternativeNames.forEach(leaf::addSubjectAlternativeName);
    return leaf;
  }

  private KeyType parseKeyType() {
    return KeyType.byToken(keyType).filter(t -> t != KeyType.RSA_1024)
        .orElseThrow(() -> usage("--key-type must be ec or rsa, was '" + keyType + "'"));
  }

  private Output parseFormat() {
    return switch (format.toLowerCase(Locale.ROOT)) {
      case "pkcs12" -> new Output(List.of(KeyStoreFormat.PKCS12), false);
      case "jks" -> new Output(List.of(KeyStoreFormat.JKS), false);
      case "pem" -> new Output(List.of(), true);
      case "all" -> new Output(List.of(KeyStoreFormat.PKCS12, KeyStoreFormat.JKS), true);
      default -> throw usage("--format must be pkcs12, jks, pem or all, was '" + format + "'");
    };
  }

  private void validate(Output output) {
    if (nodes < 1) {
      throw usage("--nodes must be at least 1, was " + nodes);
    }
    if (days < 1) {
      throw usage("--days must be at least 1, was " + days);
    }
    if (password != null && password.length == 0) {
      throw usage("the store password must not be empty");
    }
    if (password == null && !output.stores().isEmpty()) {
      throw usage("pkcs12 and jks output need a store password: --password (prompts), --password-file or"
          + " --password-env");
    }
    for (String name : subjectAlternativeNames) {
      if (name.isBlank()) {
        throw usage("--hostname must not be blank");
      }
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** Runs the command on its own, for local testing; the launcher registers it as {@code certs}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new CertsCommand()).execute(args));
  }
}
