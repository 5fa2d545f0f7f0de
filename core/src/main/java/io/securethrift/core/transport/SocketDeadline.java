package io.securethrift.core.transport;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Closes a socket whose handshake, or a write, has not finished by a deadline. A socket read timeout alone would
 * restart with every byte, so a peer trickling one byte at a time could hold a thread for ever, and a blocking write
 * has no timeout at all, so a peer that stops reading (a zero TCP window) would hold the writing thread for ever;
 * closing the socket unblocks the thread wherever it waits.
 *
 * <p>One daemon thread keeps every deadline. Arming and disarming do not wake it: it is woken only by a deadline
 * earlier than the one it sleeps until (the first after a quiet spell, or a shorter timeout), or to drop disarmed
 * deadlines once {@link #SWEEP_EVERY} were armed since it last looked. A timer task per handshake (armed, then
 * cancelled) woke its thread twice per connection, a context switch on each side that a new plain connection on two
 * busy cores paid for measurably.
 */
final class SocketDeadline implements AutoCloseable {
  /** Deadlines armed between two looks of the keeper at most, so disarmed ones pile up no further. */
  static final int SWEEP_EVERY = 1024;
  private static final Keeper KEEPER = new Keeper();
  private static final int ARMED = 0;
  private static final int DISARMED = 1;
  private static final int EXPIRED = 2;

  private final long due;
  private final AtomicInteger state = new AtomicInteger(ARMED);
  /** Null once disarmed, so a finished connection's socket is not kept until the keeper next looks. */
  private volatile Socket socket;

  private SocketDeadline(Socket socket, long due) {
    this.socket = socket;
    this.due = due;
  }

  static SocketDeadline arm(Socket socket, Duration timeout) {
    SocketDeadline deadline = new SocketDeadline(socket, System.nanoTime() + timeout.toNanos());
    KEEPER.add(deadline);
    return deadline;
  }

  /** Whether the deadline passed and the socket was closed. */
  boolean expired() {
    return state.get() == EXPIRED;
  }

  /** Disarms the deadline once the handshake or write is done. */
  @Override
  public void close() {
    if (state.compareAndSet(ARMED, DISARMED)) {
      socket = null;
    }
  }

  private void expire() {
    Socket s = socket;
    if (state.compareAndSet(ARMED, EXPIRED) && s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // Closing is how the deadline takes effect; a failure to close leaves nothing else to do.
      }
    }
  }

  /** The thread that closes the sockets of expired deadlines, started with the first deadline. */
  private static final class Keeper implements Runnable {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    /** Guarded by lock, as are the fields below: deadlines armed and not yet dropped, in no particular order. */
    private ArrayDeque<SocketDeadline> deadlines = new ArrayDeque<>();
    private boolean started;
    /** Whether the keeper waits for no deadline; if not, it wakes at {@link #wakeAt} (a nanoTime). */
    private boolean idle = true;
    private long wakeAt;
    private int armedSinceLook;

    void add(SocketDeadline deadline) {
      lock.lock();
      try {
        deadlines.add(deadline);
        if (!started) {
          Thread thread = new Thread(this, "securethrift-handshake-deadline");
          thread.setDaemon(true);
          thread.start();
          started = true;
        }
        boolean earlier = idle || deadline.due - wakeAt < 0;
        if (earlier) {
          idle = false;
          wakeAt = deadline.due;
        }
        if (earlier || ++armedSinceLook >= SWEEP_EVERY) {
          wake.signal();
        }
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void run() {
      List<SocketDeadline> due = new ArrayList<>();
      while (true) {
        ArrayDeque<SocketDeadline> looked;
        lock.lock();
        try {
          looked = deadlines;
          deadlines = new ArrayDeque<>();
          armedSinceLook = 0;
        } finally {
          lock.unlock();
        }
        // Sockets are closed outside the lock: arming never waits for a close.
        long now = System.nanoTime();
        ArrayDeque<SocketDeadline> pending = new ArrayDeque<>();
        for (SocketDeadline d : looked) {
          if (d.state.get() != ARMED) {
            continue;
          }
          if (d.due - now <= 0) {
            due.add(d);
          } else {
            pending.add(d);
          }
        }
        due.forEach(SocketDeadline::expire);
        due.clear();
        lock.lock();
        try {
          pending.addAll(deadlines);
          deadlines = pending;
          sleep();
        } finally {
          lock.unlock();
        }
      }
    }

    /** Waits until the earliest deadline still armed, or until {@link #add} wakes it. Holds the lock. */
    private void sleep() {
      SocketDeadline earliest = null;
      for (SocketDeadline d : deadlines) {
        if (d.state.get() == ARMED && (earliest == null || d.due - earliest.due < 0)) {
          earliest = d;
        }
      }
      idle = earliest == null;
      try {
        if (idle) {
          wake.await();
        } else {
          wakeAt = earliest.due;
          wake.awaitNanos(Math.max(0, wakeAt - System.nanoTime()));
        }
      } catch (InterruptedException e) {
        // Nothing interrupts this thread on purpose; if something does, the keeper only looks again early.
      }
    }
  }
}
