package io.securethrift.ingest.accumulo;

import java.util.Arrays;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.tserver.TabletServer;

/**
 * The tablet server of a fault run's cluster: Accumulo's own, registering in ZooKeeper the fault proxy's address
 * instead of its own ({@code rpc.advertise.addr}, Accumulo 2.1.4), so that everything that finds it there (the
 * client, the manager, the garbage collector) connects through the proxy. MiniAccumuloCluster starts every server
 * from one site file and the other servers must keep their own addresses, so the proxy's address reaches only this
 * class, in the system property {@value #ADVERTISE}, and is passed on as a {@code -o} override of the tablet server's
 * command line.
 */
public final class AdvertisedTabletServer {
  /** The system property holding the {@code host:port} to register. */
  static final String ADVERTISE = "securethrift.bench.tserver.advertise";

  private AdvertisedTabletServer() {}

  public static void main(String[] args) throws Exception {
    String address = System.getProperty(ADVERTISE);
    if (address == null || address.isBlank()) {
      throw new IllegalStateException("the system property " + ADVERTISE + " must name the host:port this tablet"
          + " server registers (the fault proxy's); the fault runs set it in the cluster's system properties");
    }
    String[] withAddress = Arrays.copyOf(args, args.length + 2);
    withAddress[args.length] = "-o";
    withAddress[args.length + 1] = Property.RPC_PROCESS_ADVERTISE_ADDRESS.getKey() + "=" + address;
    TabletServer.main(withAddress);
  }
}
