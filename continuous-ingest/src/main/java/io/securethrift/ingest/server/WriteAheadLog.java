package io.securethrift.ingest.server;

import io.securethrift.ingest.workload.Entry;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * An optional write-ahead log on local disk, so the embedded backend can also pay a storage cost like a tablet
 * server: every batch is appended (each key part and the value length-prefixed), and {@link #sync()} forces it to
 * disk. Thread-safe.
 */
final class WriteAheadLog implements AutoCloseable {
  private final FileChannel channel;
  private final DataOutputStream out;

  WriteAheadLog(Path file) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    this.out = new DataOutputStream(new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel),
        1 << 16));
  }

  synchronized void append(List<Entry> batch) throws IOException {
    out.writeInt(batch.size());
    for (Entry e : batch) {
      write(e.row());
      write(e.family());
      write(e.qualifier());
      write(e.visibility());
      write(e.value());
    }
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
