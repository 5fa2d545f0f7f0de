package io.securethrift.testkit.ca;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.OutputEncryptor;

/** PEM text for certificates, CRLs and PKCS#8 private keys, as OpenSSL writes them. */
final class Pem {

  /**
   * BouncyCastle's provider, used only for PEM key encryption (the JDK lacks the cipher name BC
   * asks for) and deliberately not installed JVM-wide, where it would change other tests.
   */
  private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

  private Pem() {}

  static String certificates(List<X509Certificate> certificates) {
    return objects(certificates);
  }

  static String crl(X509CRL crl) {
    return objects(List.of(crl));
  }

  private static String objects(List<?> objects) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      for (Object object : objects) {
        writer.writeObject(object);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /**
   * Returns the key as PKCS#8 PEM; encrypted with PBES2/AES-256-CBC when a password is given, so
   * that it reads with {@code openssl pkey} and with BouncyCastle's {@code PEMParser}.
   */
  static String privateKey(PrivateKey key, char[] password) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(new JcaPKCS8Generator(key, encryptor(password)));
    } catch (IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot encode the private key", e);
    }
    return text.toString();
  }

  private static OutputEncryptor encryptor(char[] password) throws OperatorCreationException {
    if (password == null) {
      return null;
    }
    return new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
        .setProvider(BOUNCY_CASTLE)
        .setPassword(password)
        .build();
  }
}
