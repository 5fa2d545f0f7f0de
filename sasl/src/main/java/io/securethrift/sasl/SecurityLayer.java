package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import javax.security.sasl.SaslException;

/**
 * The plain text of GSSAPI's security layer messages (RFC 4752 section 3.1), and securethrift's AES-GCM extension of
 * them. After the Kerberos context is established the server sends an offer, the client a choice, both wrapped by the
 * context (so a man in the middle can alter neither):
 *
 * <pre>
 * offer  (server): layers (bit mask) | max buffer (3 bytes, network order)                        exactly 4 bytes
 * choice (client): layer (one bit)   | max buffer (3 bytes)                   | authorization id (UTF-8)
 * choice with {@link #AES_GCM}:        layer | max buffer | version 1 | cipher | client X25519 share (32)
 *                                      | client secret (32) | authorization id
 * key reply (server, AES-GCM only): version 1 | server X25519 share (32) | key confirmation (16)
 * </pre>
 *
 * {@link #AES_GCM} is a bit RFC 4752 leaves unassigned. The JDK's client picks the first of its own levels whose bit
 * is set and ignores the others ({@code GssKrb5Client.findPreferredMask}); Cyrus SASL's and pure-sasl's test bits 4, 2
 * and 1 one by one; so a server may offer it to every client, and only a securethrift client chooses it. The offer
 * stays exactly 4 bytes: Cyrus refuses any other length.
 *
 * <p>A server that checks channel binding (mode {@code sasl-over-tls}, {@code securethrift.sasl.channel.binding} not
 * {@code off}) adds {@link #CHANNEL_BINDING} to its offer; a client that binds answers with the same bit beside its
 * one layer bit, and its binding (length byte, then the {@link TlsServerEndPoint} hash) after the AES-GCM fields and
 * before the authorization id. A client binds only when the offer has the bit, so only securethrift servers, which
 * offer it, ever receive the field.
 */
final class SecurityLayer {
  static final int NONE = 1;
  static final int INTEGRITY = 2;
  static final int CONFIDENTIALITY = 4;
  /** securethrift's AES-GCM privacy: {@code auth-conf} whose data phase is AES-GCM records ({@link GcmKeys}). */
  static final int AES_GCM = 0x10;
  /** securethrift's channel binding: offered by a server that checks it, set in the choice of a client that binds. */
  static final int CHANNEL_BINDING = 0x20;
  /** Version of the AES-GCM extension fields. */
  static final int VERSION = 1;
  /** The one cipher of version 1, AES-256-GCM; an id field keeps room for others. */
  static final int AES_256_GCM = 2;
  static final int SHARE = 32;
  static final int SECRET = 32;
  static final int CONFIRM = 16;
  /** The largest max buffer 3 bytes can state. */
  static final int MAX_BUFFER_LIMIT = 0xFFFFFF;
  private static final int HEADER = 4;
  private static final int EXTENSION = 2 + SHARE + SECRET;
  static final int KEY_REPLY = 1 + SHARE + CONFIRM;
  private static final int KNOWN = NONE | INTEGRITY | CONFIDENTIALITY | AES_GCM | CHANNEL_BINDING;

  private SecurityLayer() {}

  /** A server's offer. */
  static byte[] offer(int layers, int maxBuffer) {
    return header(layers, maxBuffer).array();
  }

  /** The layers and max buffer of an offer; refuses any length but 4, as Cyrus does. */
  static Offer parseOffer(byte[] plain) throws SaslException {
    if (plain.length != HEADER) {
      throw new SaslException("GSSAPI security layer offer of " + plain.length + " bytes, where RFC 4752 sends 4");
    }
    return new Offer(plain[0] & 0xff, maxBuffer(plain));
  }

  /** A client's choice of a standard layer, with its channel binding when not null. */
  static byte[] choice(int layer, int maxBuffer, byte[] binding, String authorizationId) {
    return choice(layer, maxBuffer, new byte[0], binding, authorizationId);
  }

  /** A client's choice of {@link #AES_GCM}, with its key share and secret, and its channel binding when not null. */
  static byte[] gcmChoice(int maxBuffer, byte[] share, byte[] secret, byte[] binding, String authorizationId) {
    byte[] extension = ByteBuffer.allocate(EXTENSION).put((byte) VERSION).put((byte) AES_256_GCM).put(share)
        .put(secret).array();
    return choice(AES_GCM, maxBuffer, extension, binding, authorizationId);
  }

  private static byte[] choice(int layer, int maxBuffer, byte[] extension, byte[] binding, String authorizationId) {
    byte[] authz = utf8(authorizationId);
    int bound = binding == null ? 0 : 1 + binding.length;
    ByteBuffer choice = ByteBuffer.allocate(HEADER + extension.length + bound + authz.length)
        .put(header(binding == null ? layer : layer | CHANNEL_BINDING, maxBuffer).array()).put(extension);
    if (binding != null) {
      choice.put((byte) binding.length).put(binding);
    }
    return choice.put(authz).array();
  }

  /**
   * A client's choice, checked against the server's {@code offered} layers: exactly one bit, one that was offered,
   * and for {@link #AES_GCM} a known version and cipher.
   */
  static Choice parseChoice(byte[] plain, int offered) throws SaslException {
    if (plain.length < HEADER) {
      throw new SaslException("GSSAPI security layer choice of " + plain.length + " bytes, shorter than its 4-byte"
          + " header");
    }
    int layer = plain[0] & 0xff & ~CHANNEL_BINDING;
    boolean bound = (plain[0] & CHANNEL_BINDING) != 0;
    if (bound && (offered & CHANNEL_BINDING) == 0) {
      throw new SaslException("the client sent a channel binding this server did not offer to check");
    }
    if (Integer.bitCount(layer) != 1 || (layer & offered) == 0) {
      throw new SaslException("the client chose security layer 0x" + Integer.toHexString(layer) + ", which is not"
          + " one of the layers offered (0x" + Integer.toHexString(offered) + ")");
    }
    int authz = HEADER;
    byte[] share = null;
    byte[] secret = null;
    if (layer == AES_GCM) {
      if (plain.length < HEADER + EXTENSION) {
        throw new SaslException("AES-GCM security layer choice of " + plain.length + " bytes, shorter than the "
            + (HEADER + EXTENSION) + " its key share needs");
      }
      int version = plain[HEADER] & 0xff;
      int cipher = plain[HEADER + 1] & 0xff;
      if (version != VERSION || cipher != AES_256_GCM) {
        throw new SaslException("AES-GCM security layer choice of version " + version + " and cipher " + cipher
            + "; this server speaks version " + VERSION + " with cipher " + AES_256_GCM + " (AES-256-GCM)");
      }
      share = Arrays.copyOfRange(plain, HEADER + 2, HEADER + 2 + SHARE);
      secret = Arrays.copyOfRange(plain, HEADER + 2 + SHARE, HEADER + EXTENSION);
      authz = HEADER + EXTENSION;
    }
    byte[] binding = null;
    if (bound) {
      int length = authz < plain.length ? plain[authz] & 0xff : -1;
      if (length < 0 || authz + 1 + length > plain.length) {
        throw new SaslException("the client's channel binding is cut short: " + (plain.length - authz)
            + " bytes after the security layer fields");
      }
      binding = Arrays.copyOfRange(plain, authz + 1, authz + 1 + length);
      authz += 1 + length;
    }
    return new Choice(layer, maxBuffer(plain), share, secret, binding, authorizationId(plain, authz));
  }

  /** A server's answer to an {@link #AES_GCM} choice. */
  static byte[] keyReply(byte[] share, byte[] confirmation) {
    return ByteBuffer.allocate(KEY_REPLY).put((byte) VERSION).put(share).put(confirmation).array();
  }

  /** The server's share from a key reply; its confirmation is {@link #confirmation}. */
  static byte[] replyShare(byte[] plain) throws SaslException {
    if (plain.length != KEY_REPLY || (plain[0] & 0xff) != VERSION) {
      throw new SaslException("AES-GCM key reply of " + plain.length + " bytes"
          + (plain.length > 0 ? " and version " + (plain[0] & 0xff) : "") + ", where version " + VERSION + " sends "
          + KEY_REPLY);
    }
    return Arrays.copyOfRange(plain, 1, 1 + SHARE);
  }

  static byte[] confirmation(byte[] reply) {
    return Arrays.copyOfRange(reply, 1 + SHARE, KEY_REPLY);
  }

  /** The bit of a standard layer for {@code qop}. */
  static int bit(QualityOfProtection qop) {
    switch (qop) {
      case AUTH:
        return NONE;
      case AUTH_INT:
        return INTEGRITY;
      default:
        return CONFIDENTIALITY;
    }
  }

  /** The level a single layer bit stands for. */
  static QualityOfProtection qop(int layer) {
    return layer == NONE ? QualityOfProtection.AUTH
        : layer == INTEGRITY ? QualityOfProtection.AUTH_INT : QualityOfProtection.AUTH_CONF;
  }

  /** The standard layers of a list of levels. */
  static int bits(List<QualityOfProtection> levels) {
    int bits = 0;
    for (QualityOfProtection q : levels) {
      bits |= bit(q);
    }
    return bits;
  }

  /** The layers of an offer as text for errors, e.g. {@code [auth-conf (AES-GCM), auth]}; unknown bits in hex. */
  static String describe(int layers) {
    StringBuilder s = new StringBuilder("[");
    for (int bit : new int[] {AES_GCM, CONFIDENTIALITY, INTEGRITY, NONE}) {
      if ((layers & bit) != 0) {
        s.append(s.length() > 1 ? ", " : "").append(qop(bit)).append(bit == AES_GCM ? " (AES-GCM)" : "");
      }
    }
    if ((layers & ~KNOWN) != 0) {
      s.append(s.length() > 1 ? ", " : "").append("0x").append(Integer.toHexString(layers & ~KNOWN));
    }
    return s.append(']').toString();
  }

  private static ByteBuffer header(int layers, int maxBuffer) {
    return ByteBuffer.allocate(HEADER).put(0, (byte) layers).put(1, (byte) (maxBuffer >>> 16))
        .put(2, (byte) (maxBuffer >>> 8)).put(3, (byte) maxBuffer);
  }

  private static int maxBuffer(byte[] plain) {
    return (plain[1] & 0xff) << 16 | (plain[2] & 0xff) << 8 | (plain[3] & 0xff);
  }

  private static byte[] utf8(String s) {
    return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
  }

  /** The authorization id after {@code offset}; null when absent; refused unless it is valid UTF-8. */
  private static String authorizationId(byte[] plain, int offset) throws SaslException {
    if (offset == plain.length) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(plain, offset, plain.length - offset)).toString();
    } catch (CharacterCodingException e) {
      // Raw text: the negotiation escapes this exception's message once, when it reports it.
      throw new SaslException("GSSAPI authorization id of " + (plain.length - offset) + " bytes is not UTF-8: "
          + e.getMessage());
    }
  }

  /** A server's offer. */
  static final class Offer {
    final int layers;
    final int maxBuffer;

    Offer(int layers, int maxBuffer) {
      this.layers = layers;
      this.maxBuffer = maxBuffer;
    }
  }

  /** A client's choice. */
  static final class Choice {
    final int layer;
    final int maxBuffer;
    /** The client's X25519 share and secret under {@link #AES_GCM}; null otherwise. */
    final byte[] share;
    final byte[] secret;
    /** The client's {@link TlsServerEndPoint} binding; null when it sent none. */
    final byte[] binding;
    final String authorizationId;

    Choice(int layer, int maxBuffer, byte[] share, byte[] secret, byte[] binding, String authorizationId) {
      this.layer = layer;
      this.maxBuffer = maxBuffer;
      this.share = share;
      this.secret = secret;
      this.binding = binding;
      this.authorizationId = authorizationId;
    }
  }
}
