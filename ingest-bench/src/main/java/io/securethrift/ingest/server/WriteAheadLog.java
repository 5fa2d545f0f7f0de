package io.securethrift.ingest.server;

import io.securethrift.ingest.workload.Entry;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An optional write-ahead log on local disk, so the embedded backend can also pay a storage cost like a tablet
 * server: every batch is appended (a count, then each key part and the value length-prefixed) and handed to the
 * operating system before the batch is acknowledged, so a killed server process loses no acknowledged batch;
 * {@link #sync()} forces it to disk, against a machine crash. A server started on an existing log replays it first
 * ({@link #replay}). Thread-safe.
 */
final class WriteAheadLog implements AutoCloseable {
  /** Largest key part or value replay accepts: far above any entry continuous ingest writes. */
  private static final int MAX_FIELD = 1 << 20;
  /** Largest batch replay accepts, in entries. */
  private static final int MAX_BATCH = 1 << 24;

  private final FileChannel channel;
  private final DataOutputStream out;

  /** Opens (or creates) the log; call {@link #replay} before appending to a log that may hold batches. */
  WriteAheadLog(Path file) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
  }

  /**
   * Hands every whole batch the log holds to {@code apply}, in order, and positions the log after the last one. A
   * batch cut short (the process was killed while appending it, so it was never acknowledged) is dropped and the log
   * truncated there. Lengths are checked against the bytes that remain, so a damaged log cannot make replay allocate
   * more than the file holds.
   *
   * @return the entries replayed
   */
  synchronized long replay(Consumer<List<Entry>> apply) throws IOException {
    long size = channel.size();
    long good = 0;
    long entries = 0;
    channel.position(0);
    // Counted above the buffer: the bytes the decoder has consumed, so `good` ends exactly at a batch's end.
    CountingInput counted = new CountingInput(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16));
    DataInputStream in = new DataInputStream(counted);
    try {
      while (good < size) {
        List<Entry> batch = readBatch(in, counted, size);
        apply.accept(batch);
        entries += batch.size();
        good = counted.position;
      }
    } catch (EOFException | TornRecord torn) {
      // The tail after `good` is a batch the process did not finish writing; it was never acknowledged.
    }
    channel.truncate(good);
    channel.position(good);
    return entries;
  }

  /** One batch; every count and length is checked against the bytes of the file not yet read. */
  private static List<Entry> readBatch(DataInputStream in, CountingInput counted, long size) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > MAX_BATCH || count > size - counted.position) {
      throw new TornRecord();
    }
    List<Entry> batch = new ArrayList<>(Math.min(count, 1 << 16));
    for (int i = 0; i < count; i++) {
      batch.add(new Entry(field(in, counted, size), field(in, counted, size), field(in, counted, size),
          field(in, counted, size), field(in, counted, size)));
    }
    return batch;
  }

  private static byte[] field(DataInputStream in, CountingInput counted, long size) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > MAX_FIELD || length > size - counted.position) {
      throw new TornRecord();
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }

  /** A record whose lengths cannot be right: the end of what was written whole. */
  private static final class TornRecord extends IOException {
    private static final long serialVersionUID = 1L;

    TornRecord() {
      super("torn write-ahead log record");
    }
  }

  /** Counts the bytes read from the channel, so replay knows where the last whole batch ended. */
  private static final class CountingInput extends FilterInputStream {
    long position;

    CountingInput(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        position++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        position += n;
      }
      return n;
    }
  }

  /** Appends the batch and writes it through to the operating system before returning. */
  synchronized void append(List<Entry> batch) throws IOException {
    out.writeInt(batch.size());
    for (Entry e : batch) {
      write(e.row());
      write(e.family());
      write(e.qualifier());
      write(e.visibility());
      write(e.value());
    }
    out.flush();
  }

  private void write(byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  synchronized void sync() throws IOException {
    out.flush();
    channel.force(false);
  }

  synchronized void truncate() throws IOException {
    out.flush();
    channel.truncate(0);
    channel.position(0);
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
