package io.securethrift.sasl;

/** Bytes written as hex for hostile-input tables: spaces allowed, and {@code N*XX} for N copies of byte XX. */
final class Hex {
  private Hex() {}

  static byte[] bytes(String text) {
    StringBuilder expanded = new StringBuilder();
    for (String part : text.trim().split("\\s+")) {
      int star = part.indexOf('*');
      expanded.append(star < 0 ? part : part.substring(star + 1).repeat(Integer.parseInt(part.substring(0, star))));
    }
    String h = expanded.toString();
    byte[] out = new byte[h.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
