package io.securethrift.sasl;

import java.util.Arrays;

/**
 * Tells a Kerberos GSS-API wrap token from a context token by its token identifier, and finds the AP-REQ in an
 * initial context token. A GSSAPI server's security layer offer (RFC 4752 section 3.1) is its only wrap token during
 * negotiation, so a client that closes right after one has refused the offered protection levels.
 */
final class GssTokens {
  private GssTokens() {}

  static boolean isWrapToken(byte[] token) {
    if (token.length >= 2 && token[0] == 0x05 && token[1] == 0x04) {
      return true; // RFC 4121 Wrap token (AES and later enctypes); its context tokens keep the framing below.
    }
    int i = tokenIdentifier(token);
    return i >= 0 && token[i] == 0x02 && token[i + 1] == 0x01;
  }

  /**
   * The AP-REQ of a Kerberos initial context token (token identifier 01 00), as its DER bytes; null for any other
   * token.
   */
  static byte[] apRequest(byte[] token) {
    int i = tokenIdentifier(token);
    return i >= 0 && token[i] == 0x01 && token[i + 1] == 0x00 ? Arrays.copyOfRange(token, i + 2, token.length) : null;
  }

  /**
   * Where the two bytes of the token identifier start in RFC 1964 framing (0x60, a DER length, the mechanism OID, then
   * the identifier: 02 01 Wrap, 02 00 AP-REP, 01 00 AP-REQ); -1 for a token not so framed.
   */
  private static int tokenIdentifier(byte[] token) {
    if (token.length < 4 || (token[0] & 0xff) != 0x60) {
      return -1;
    }
    int i = 1;
    int length = token[i++] & 0xff;
    if (length >= 0x80) {
      i += length & 0x7f;
    }
    if (i + 2 > token.length || token[i] != 0x06) {
      return -1;
    }
    i += 2 + (token[i + 1] & 0xff);
    return i + 2 <= token.length ? i : -1;
  }
}
