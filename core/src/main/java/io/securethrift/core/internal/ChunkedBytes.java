package io.securethrift.core.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Bytes collected for one outgoing message, in chunks rather than one array that doubles: no byte is copied twice
 * once past the first chunk, no array is up to twice the message (a 1 MiB reply took a 2 MiB array, two G1 regions),
 * and no array is larger than {@link #CHUNK}, a quarter of G1's smallest region, so a reply waiting for its peer is
 * never a humongous object. The first chunk
 * starts small and doubles up to {@link #CHUNK}, so a small message needs a small array; {@link #clear()} keeps only
 * it, so a connection that once sent a large message holds one chunk afterwards. Not thread-safe.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules and may change in
 * any release.
 */
public final class ChunkedBytes {
  /**
   * Size of every chunk after the first, and the first's largest; each is one write. Large enough that messages up
   * to it, most calls, go in one write as before: with 64 KiB chunks a 64 KiB call's few bytes of framing took a write
   * (and a TLS record) of their own, and such calls ran 15 % slower.
   */
  public static final int CHUNK = 256 * 1024;

  private byte[] first;
  private int firstLength;
  /** Chunks after {@link #first}, each full but the last. */
  private final List<byte[]> more = new ArrayList<>();
  private int lastLength;
  private long size;

  /** @param initial the first chunk's first size */
  public ChunkedBytes(int initial) {
    this.first = new byte[initial];
  }

  public void write(byte[] buf, int off, int len) {
    size += len;
    int offset = off;
    int remaining = len;
    if (more.isEmpty()) {
      if (firstLength + remaining > first.length && first.length < CHUNK) {
        first = Arrays.copyOf(first, (int) Math.min(Math.max(2L * first.length, firstLength + remaining), CHUNK));
      }
      int n = Math.min(remaining, first.length - firstLength);
      System.arraycopy(buf, offset, first, firstLength, n);
      firstLength += n;
      offset += n;
      remaining -= n;
    }
    while (remaining > 0) {
      if (more.isEmpty() || lastLength == CHUNK) {
        more.add(new byte[CHUNK]);
        lastLength = 0;
      }
      int n = Math.min(remaining, CHUNK - lastLength);
      System.arraycopy(buf, offset, more.get(more.size() - 1), lastLength, n);
      lastLength += n;
      offset += n;
      remaining -= n;
    }
  }

  /** Bytes written since the last {@link #clear()}. */
  public long size() {
    return size;
  }

  /** The first chunk, to fill in a header written as a placeholder at its start. */
  public byte[] first() {
    return first;
  }

  /** How many chunks hold the bytes. */
  public int chunks() {
    return 1 + more.size();
  }

  /** Chunk {@code i}, the first being 0; only its first {@link #length(int)} bytes are the message's. */
  public byte[] chunk(int i) {
    return i == 0 ? first : more.get(i - 1);
  }

  /** How many bytes of chunk {@code i} are the message's. */
  public int length(int i) {
    return i == 0 ? firstLength : i == more.size() ? lastLength : CHUNK;
  }

  /**
   * The bytes as arrays of exactly their lengths, in order: the chunks themselves where they are full, copies where
   * not. It hands the chunks over: nothing may be written after.
   */
  public List<byte[]> toArrays() {
    List<byte[]> arrays = new ArrayList<>(chunks());
    for (int i = 0; i < chunks(); i++) {
      byte[] chunk = chunk(i);
      arrays.add(length(i) == chunk.length ? chunk : Arrays.copyOf(chunk, length(i)));
    }
    return arrays;
  }

  /** The bytes as one array. */
  public byte[] toArray() {
    byte[] all = new byte[Math.toIntExact(size)];
    int at = 0;
    for (int i = 0; i < chunks(); i++) {
      System.arraycopy(chunk(i), 0, all, at, length(i));
      at += length(i);
    }
    return all;
  }

  /** Empties it, keeping the first chunk (at most {@link #CHUNK}) for the next message. */
  public void clear() {
    more.clear();
    firstLength = 0;
    lastLength = 0;
    size = 0;
  }
}
