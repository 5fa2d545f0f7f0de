package io.securethrift.sasl;

/**
 * Tells a Kerberos GSS-API wrap token from a context token by its token identifier. A GSSAPI server's security layer
 * offer (RFC 4752 section 3.1) is its only wrap token during negotiation, so a client that closes right after one has
 * refused the offered protection levels.
 */
final class GssTokens {
  private GssTokens() {}

  static boolean isWrapToken(byte[] token) {
    if (token.length >= 2 && token[0] == 0x05 && token[1] == 0x04) {
      return true; // RFC 4121 Wrap token (AES and later enctypes); its context tokens keep the framing below.
    }
    // RFC 1964 framing: 0x60, a DER length, the mechanism OID, then the token identifier; 02 01 is Wrap, 02 00 AP-REP.
    if (token.length < 4 || (token[0] & 0xff) != 0x60) {
      return false;
    }
    int i = 1;
    int length = token[i++] & 0xff;
    if (length >= 0x80) {
      i += length & 0x7f;
    }
    if (i + 2 > token.length || token[i] != 0x06) {
      return false;
    }
    i += 2 + (token[i + 1] & 0xff);
    return i + 2 <= token.length && token[i] == 0x02 && token[i + 1] == 0x01;
  }
}
