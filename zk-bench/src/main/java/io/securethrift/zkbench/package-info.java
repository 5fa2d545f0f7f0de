/**
 * {@code zk-bench}: ZooKeeper's cost of TLS (the zk-latencies workload) on the client port, the quorum or both, in
 * paired turns and rounds on local ensembles. Runs on ZooKeeper's own Netty, in a JVM of its own. Harness code, not
 * published.
 */
package io.securethrift.zkbench;
