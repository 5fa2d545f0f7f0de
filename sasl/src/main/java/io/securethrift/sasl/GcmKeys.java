package io.securethrift.sasl;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;
import javax.security.sasl.SaslException;

/**
 * The keys of GSSAPI's AES-GCM layer ({@link SecurityLayer#AES_GCM}), from an ephemeral X25519 exchange carried in
 * the security layer messages, which the Kerberos context wraps:
 *
 * <pre>
 * transcript = SHA-256("securethrift gssapi aes-gcm 1" | offer | choice | server share), each as sent in plain
 * PRK        = HKDF-Extract(salt = transcript, X25519(client, server) | client secret)
 * keys       = HKDF-Expand(PRK, "client to server"), HKDF-Expand(PRK, "server to client"): one per direction
 * confirm    = HKDF-Expand(PRK, "confirm"), 16 bytes, sent in the server's key reply and checked by the client
 * </pre>
 *
 * The offer, the choice and the reply travel under the Kerberos session key, so a man in the middle can neither
 * substitute a share nor strike the offer's bit; the shares make the keys forward secret (a later theft of the
 * service keytab and a recording of the connection do not decrypt it); the client secret travels encrypted
 * (confidentiality wrap), so the keys stay as secret as GSS privacy even if X25519 fell. Each direction's key expands
 * into a key and a nonce base in {@link GcmRecords}.
 */
final class GcmKeys {
  private static final String ALGORITHM = "X25519";
  /** DER of an X.509 SubjectPublicKeyInfo for X25519 (RFC 8410) up to the 32 bytes of the key. */
  private static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00};
  private static final byte[] LABEL = "securethrift gssapi aes-gcm 1".getBytes(StandardCharsets.US_ASCII);
  private static final boolean AVAILABLE = probe();

  final byte[] clientToServer;
  final byte[] serverToClient;
  final byte[] confirmation;

  private GcmKeys(byte[] prk) {
    this.clientToServer = Hkdf.expand(prk, "client to server", 32);
    this.serverToClient = Hkdf.expand(prk, "server to client", 32);
    this.confirmation = Hkdf.expand(prk, "confirm", SecurityLayer.CONFIRM);
  }

  /** Whether this Java runtime has X25519 (module jdk.crypto.ec before Java 22); without it the layer is not used. */
  static boolean available() {
    return AVAILABLE;
  }

  /** A fresh key pair for one connection. */
  static KeyPair generate() throws SaslException {
    try {
      return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new SaslException("X25519 is unavailable in this Java runtime: " + e.getMessage(), e);
    }
  }

  /** The 32 bytes of a public key (RFC 7748's u-coordinate encoding). */
  static byte[] share(KeyPair pair) {
    byte[] encoded = pair.getPublic().getEncoded();
    return Arrays.copyOfRange(encoded, encoded.length - SecurityLayer.SHARE, encoded.length);
  }

  /**
   * The keys from this side's {@code own} private key and the peer's share.
   *
   * @param offer the offer's plain text
   * @param choice the choice's plain text
   * @param serverShare the server's share, as sent
   */
  static GcmKeys derive(PrivateKey own, byte[] peerShare, byte[] clientSecret, byte[] offer, byte[] choice,
      byte[] serverShare) throws SaslException {
    byte[] shared = agree(own, peerShare);
    MessageDigest sha = sha256();
    sha.update(LABEL);
    sha.update(offer);
    sha.update(choice);
    sha.update(serverShare);
    byte[] ikm = new byte[shared.length + clientSecret.length];
    System.arraycopy(shared, 0, ikm, 0, shared.length);
    System.arraycopy(clientSecret, 0, ikm, shared.length, clientSecret.length);
    Arrays.fill(shared, (byte) 0);
    byte[] prk = Hkdf.extract(sha.digest(), ikm);
    Arrays.fill(ikm, (byte) 0);
    GcmKeys keys = new GcmKeys(prk);
    Arrays.fill(prk, (byte) 0);
    return keys;
  }

  /** Whether {@code confirmation} is this exchange's, in constant time. */
  boolean confirms(byte[] confirmation) {
    return MessageDigest.isEqual(this.confirmation, confirmation);
  }

  private static byte[] agree(PrivateKey own, byte[] peerShare) throws SaslException {
    try {
      byte[] encoded = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + SecurityLayer.SHARE);
      System.arraycopy(peerShare, 0, encoded, X509_PREFIX.length, SecurityLayer.SHARE);
      PublicKey peer = KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(encoded));
      KeyAgreement agreement = KeyAgreement.getInstance(ALGORITHM);
      agreement.init(own);
      agreement.doPhase(peer, true);
      // The JDK refuses a share of small order (an all-zero result) here, so a peer cannot force a known secret.
      return agreement.generateSecret();
    } catch (GeneralSecurityException e) {
      throw new SaslException("the peer's X25519 key share was refused: " + e.getMessage(), e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this Java runtime: " + e.getMessage(), e);
    }
  }

  private static boolean probe() {
    try {
      KeyPairGenerator.getInstance(ALGORITHM);
      KeyAgreement.getInstance(ALGORITHM);
      return true;
    } catch (NoSuchAlgorithmException e) {
      return false;
    }
  }
}
