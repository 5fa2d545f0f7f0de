package io.securethrift.bench;

import java.nio.ByteBuffer;
import java.util.Random;

/** Benchmark payloads: random bytes, so no layer can profit from compressible or repeated data. */
public final class Payloads {
  private Payloads() {}

  /** A buffer of {@code size} random bytes; the same size always gives the same bytes. */
  public static ByteBuffer random(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return ByteBuffer.wrap(bytes);
  }

  /** {@code 1MiB}, {@code 64KiB}, {@code 1KiB}, or bytes ({@code 100B}) when not a whole number of KiB. */
  public static String sizeLabel(int size) {
    if (size % (1 << 20) == 0) {
      return size / (1 << 20) + "MiB";
    }
    return size % 1024 == 0 ? size / 1024 + "KiB" : size + "B";
  }
}
