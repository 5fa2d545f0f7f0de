package io.securethrift.testkit.ca;

import io.securethrift.testkit.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives a test class one {@link TestCertificateAuthority} and a temporary
 * directory for the files written from it, and deletes the directory after the class.
 *
 * <p>Parameters of type {@code TestCertificateAuthority} and {@code @CertificateDirectory Path} are
 * resolved. Use it as {@code @ExtendWith(CertificateAuthorityExtension.class)} (RSA CA) or,
 * configured, from a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static CertificateAuthorityExtension certs =
 *     CertificateAuthorityExtension.withKeyType(KeyType.EC);
 *
 * @Test void tls(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
 *   Path keyStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, pw);
 * }
 * }</pre>
 *
 * {@code @Nested} classes share the enclosing class's CA.
 */
public final class CertificateAuthorityExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private final KeyType keyType;
  private TestCertificateAuthority ca;
  private Path directory;
  private String ownerId;

  /** Creates an extension whose CA has an RSA key, for {@code @ExtendWith}. */
  public CertificateAuthorityExtension() {
    this(KeyType.RSA);
  }

  private CertificateAuthorityExtension(KeyType keyType) {
    this.keyType = keyType;
  }

  /** Returns an extension whose CA signs with a key of the given type. */
  public static CertificateAuthorityExtension withKeyType(KeyType keyType) {
    return new CertificateAuthorityExtension(keyType);
  }

  /** Returns the class's CA; valid between {@code beforeAll} and {@code afterAll}. */
  public TestCertificateAuthority ca() {
    return running(ca);
  }

  /** Returns the class's temporary directory; valid between beforeAll and afterAll. */
  public Path directory() {
    return running(directory);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    if (ca != null) {
      return;
    }
    directory = Files.createTempDirectory("test-ca-");
    ca = TestCertificateAuthority.create(TestCertificateAuthority.DEFAULT_COMMON_NAME, keyType);
    ownerId = context.getUniqueId();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (ca == null || !context.getUniqueId().equals(ownerId)) {
      return;
    }
    Path dir = directory;
    ca = null;
    directory = null;
    ownerId = null;
    Directories.deleteRecursively(dir);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == TestCertificateAuthority.class
        || (type == Path.class && parameter.isAnnotated(CertificateDirectory.class));
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Path.class ? directory() : ca();
  }

  private static <T> T running(T value) {
    if (value == null) {
      throw new IllegalStateException("the CA exists only between beforeAll and afterAll");
    }
    return value;
  }
}
