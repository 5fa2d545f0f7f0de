package io.securethrift.core.internal;

import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.transport.ServerTransportFactory;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listening server's {@link ServerCountersMXBean}, registered in the platform MBean server on creation and
 * unregistered by {@link #close}. A name already taken (two servers on the same port, each on another address) is
 * logged and left to the first: the server runs on either way.
 */
public final class ServerCountersJmx implements ServerCountersMXBean, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerCountersJmx.class);
  private static final int NOT_COUNTED = -1;

  private final AuthCounters counters;
  private final ServerTransportFactory factory;
  private final IntSupplier open;
  private final IntSupplier unauthenticated;
  private final ObjectName name;
  private volatile boolean registered;

  private ServerCountersJmx(ServerTransportFactory factory, int port, IntSupplier open, IntSupplier unauthenticated) {
    this.counters = factory.counters();
    this.factory = factory;
    this.open = open;
    this.unauthenticated = unauthenticated;
    this.name = name(port);
  }

  /** The name a server listening on {@code port} is registered under. */
  public static ObjectName name(int port) {
    try {
      return new ObjectName("io.securethrift:type=Server,port=" + port);
    } catch (JMException e) {
      throw new IllegalStateException("cannot name the JMX bean of port " + port, e);
    }
  }

  /**
   * Registers the counters and plaintext switch of a server on {@code port} that counts its connections with the
   * suppliers.
   */
  public static ServerCountersJmx register(ServerTransportFactory factory, int port, IntSupplier open,
      IntSupplier unauthenticated) {
    ServerCountersJmx bean = new ServerCountersJmx(factory, port, open, unauthenticated);
    try {
      ManagementFactory.getPlatformMBeanServer().registerMBean(bean, bean.name);
      bean.registered = true;
    } catch (JMException e) {
      LOG.warn("the counters of the server on port {} are not in JMX: {}", port, e.toString());
    }
    return bean;
  }

  /** Registers the counters and plaintext switch of a server that does not count its connections. */
  public static ServerCountersJmx register(ServerTransportFactory factory, int port) {
    return register(factory, port, () -> NOT_COUNTED, () -> NOT_COUNTED);
  }

  @Override
  public long getHandshakeSuccesses() {
    return counters.successes();
  }

  @Override
  public Map<String, Long> getHandshakeSuccessesByProtection() {
    return counters.successesByProtection();
  }

  @Override
  public long getHandshakeFailures() {
    return counters.failures();
  }

  @Override
  public Map<String, Long> getHandshakeFailuresByCause() {
    Map<String, Long> byToken = new LinkedHashMap<>();
    counters.failuresByCause().forEach((cause, count) -> byToken.put(cause.token(), count));
    return byToken;
  }

  @Override
  public Map<String, Long> getConnectionsClosedByCause() {
    Map<String, Long> byToken = new LinkedHashMap<>();
    for (CloseCause cause : CloseCause.values()) {
      byToken.put(cause.token(), counters.closes(cause));
    }
    return byToken;
  }

  @Override
  public long getPlaintextConnections() {
    return counters.plaintext();
  }

  @Override
  public boolean isPlaintextAccepted() {
    return factory.plaintextAccepted();
  }

  @Override
  public void setPlaintextAccepted(boolean accepted) {
    factory.plaintextAccepted(accepted);
    LOG.info("port {}: plaintext connections {} from now on (JMX)", name.getKeyProperty("port"),
        accepted ? "served" : "refused");
  }

  @Override
  public int getOpenConnections() {
    return open.getAsInt();
  }

  @Override
  public int getUnauthenticatedConnections() {
    return unauthenticated.getAsInt();
  }

  /** Unregisters the bean; once only, and not a bean that was never registered. */
  @Override
  public synchronized void close() {
    if (!registered) {
      return;
    }
    registered = false;
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      server.unregisterMBean(name);
    } catch (JMException e) {
      LOG.warn("cannot unregister {} from JMX: {}", name, e.toString());
    }
  }
}
