package io.securethrift.core.transport;

import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.ConnectionEnd;
import io.securethrift.core.internal.SharedAccess;
import java.time.Duration;
import java.time.Instant;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransportException;

/**
 * A client connection replaced by a new one once it is older than {@code securethrift.client.connection.max.age}, or
 * once the Kerberos service ticket it authenticated with is about to end ({@link ConnectionEnd#clientRenewal}): the
 * first write of a call on an old connection opens the new one (a new handshake) and the whole call goes there,
 * after the old one is closed. Nothing is ever sent twice: a call is written to one connection only, so a call that
 * fails on it fails to the caller, which alone knows whether repeating it is safe. Its age counts from before the
 * connect, so it is never younger than the server's count of the same connection: a client whose limit is below the
 * server's by more than a request takes to arrive sends no call on a connection the server is closing for its age.
 */
final class RenewingTransport extends SecuredTransport {
  /** Opens a connection to the same server. */
  @FunctionalInterface
  interface Connector {
    SecuredTransport open() throws TTransportException;
  }

  private final Connector connector;
  /** Zero for no maximum age. */
  private final long maxAgeNanos;
  private SecuredTransport current;
  private long openedNanos;
  /** When the Kerberos ticket {@link #current} authenticated with ends; null when it has none. */
  private Instant ticketEnd;
  /** When ({@link System#nanoTime}) {@link #current} is to be replaced for its Kerberos ticket. */
  private long renewalNanos;
  /** Bytes of a call have been written since the last flush: the call is under way on {@link #current}. */
  private boolean calling;

  /**
   * Starts with {@code first}, which {@code connector} began to open at {@code openedNanos} ({@link System#nanoTime})
   * and {@code opened}; {@code maxAge} zero for none.
   */
  RenewingTransport(Connector connector, SecuredTransport first, long openedNanos, Instant opened, Duration maxAge) {
    this.connector = connector;
    this.maxAgeNanos = maxAge.toNanos();
    this.openedNanos = openedNanos;
    use(first, openedNanos, opened);
  }

  /** When the Kerberos service ticket {@code transport} authenticated with ends; null without one. */
  static Instant ticketEnd(SecuredTransport transport) {
    return SharedAccess.ticketEnd().of(transport.peerIdentity()).orElse(null);
  }

  /**
   * Sends on {@code transport} from now on, begun at {@code openedNanos} and {@code opened}. A connection renewed for
   * its ticket whose new ticket ends no later than the old one (the login's own ticket ends then, and nobody renewed
   * it) is renewed only once that end has passed, not before each call until then.
   */
  private void use(SecuredTransport transport, long openedNanos, Instant opened) {
    current = transport;
    Instant previous = ticketEnd;
    ticketEnd = ticketEnd(transport);
    if (ticketEnd != null) {
      Instant renewal = previous != null && !ticketEnd.isAfter(previous) ? ticketEnd
          : ConnectionEnd.clientRenewal(opened, ticketEnd);
      // Counted on the monotonic clock from the open, like the age, so a call costs no wall-clock reading.
      renewalNanos = openedNanos + Duration.between(opened, renewal).toNanos();
    }
  }

  /** The connection calls go to now; for tests. */
  SecuredTransport current() {
    return current;
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    if (!calling) {
      renewIfOld();
      calling = true;
    }
    current.write(buf, off, len);
  }

  /**
   * Between calls: replaces a connection past its age or near its ticket's end. A failure to connect fails this
   * call, sent nowhere.
   */
  private void renewIfOld() throws TTransportException {
    long now = System.nanoTime();
    boolean old = maxAgeNanos != 0 && now - openedNanos >= maxAgeNanos;
    if (!old && (ticketEnd == null || now - renewalNanos < 0)) {
      return;
    }
    current.close();
    openedNanos = now;
    Instant opened = Instant.now();
    use(connector.open(), now, opened);
  }

  @Override
  public void flush() throws TTransportException {
    calling = false;
    current.flush();
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    return current.read(buf, off, len);
  }

  @Override
  public PeerIdentity peerIdentity() {
    return current.peerIdentity();
  }

  @Override
  public boolean isOpen() {
    return current.isOpen();
  }

  @Override
  public void open() throws TTransportException {
    current.open();
  }

  @Override
  public void close() {
    current.close();
  }

  @Override
  protected void messageBegins() {
    current.messageBegins();
  }

  @Override
  protected void messageEnds() {
    current.messageEnds();
  }

  @Override
  public byte[] getBuffer() {
    return current.getBuffer();
  }

  @Override
  public int getBufferPosition() {
    return current.getBufferPosition();
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return current.getBytesRemainingInBuffer();
  }

  @Override
  public void consumeBuffer(int len) {
    current.consumeBuffer(len);
  }

  @Override
  public TConfiguration getConfiguration() {
    return current.getConfiguration();
  }

  @Override
  public void updateKnownMessageSize(long size) throws TTransportException {
    current.updateKnownMessageSize(size);
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    current.checkReadBytesAvailable(numBytes);
  }

  /** libthrift 0.18 and later; without {@code @Override}, so the class also builds against 0.17. */
  public void resetMessageSizeAndConsumedBytes(long newSize) throws TTransportException {
    current.resetMessageSizeAndConsumedBytes(newSize);
  }
}
