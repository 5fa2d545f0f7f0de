package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.StoreType;
import io.securethrift.core.Secret;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The key every handshake gets: decoded once, offered only for its key type and to peers accepting its issuer. */
@ExtendWith(CertificateAuthorityExtension.class)
class SingleKeyManagerTest {
  private static SingleKeyManager load(IssuedCertificate issued, Path dir, String name) throws Exception {
    Path store = issued.writeKeyStore(dir, name, KeyStoreFormat.PKCS12, TlsTestConfigs.PASSWORD);
    return StoreLoader.keyManager(SecurityConfig.builder().keyStore(store, StoreType.PKCS12,
        Secret.of(TlsTestConfigs.PASSWORD)).build().tls().keyStore().orElseThrow());
  }

  @Test
  void everyHandshakeGetsTheSameDecodedKey(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate issued = ca.leaf().issue();
    SingleKeyManager keys = load(issued, dir, "same-key");
    String server = keys.chooseServerAlias("RSA", null, null);
    PrivateKey first = keys.getPrivateKey(server);
    assertSame(first, keys.getPrivateKey(keys.chooseEngineServerAlias("RSA", null, null)),
        "no second decryption of the key store entry");
    assertSame(first, keys.getPrivateKey(keys.chooseClientAlias(new String[] {"EC", "RSA"}, null, null)));
    assertArrayEquals(issued.chain().toArray(new X509Certificate[0]), keys.getCertificateChain(server));
    assertArrayEquals(new String[] {server}, keys.getServerAliases("RSA", null));
    assertNull(keys.getPrivateKey("another alias"));
  }

  @Test
  void offeredOnlyForItsKeyType(TestCertificateAuthority ca, @CertificateDirectory Path dir) throws Exception {
    SingleKeyManager rsa = load(ca.leaf().issue(), dir, "rsa");
    assertNull(rsa.chooseServerAlias("EC", null, null));
    assertNull(rsa.chooseEngineClientAlias(new String[] {"EC", "RSASSA-PSS"}, null, null));
    SingleKeyManager ec = load(ca.leaf().keyType(KeyType.EC).issue(), dir, "ec");
    assertEquals(ec.alias(), ec.chooseEngineServerAlias("EC", null, null));
    assertNull(ec.chooseServerAlias("RSA", null, null));
  }

  @Test
  void offeredOnlyToPeersAcceptingItsIssuer(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    SingleKeyManager keys = load(ca.leaf().issue(), dir, "issuers");
    Principal ours = ca.certificate().getSubjectX500Principal();
    Principal other = new X500Principal("CN=another CA");
    assertEquals(keys.alias(), keys.chooseClientAlias(new String[] {"RSA"}, new Principal[] {other, ours}, null));
    assertEquals(keys.alias(), keys.chooseClientAlias(new String[] {"RSA"}, new Principal[0], null));
    assertNull(keys.chooseClientAlias(new String[] {"RSA"}, new Principal[] {other}, null));
  }
}
