/**
 * securethrift's settings as ZooKeeper client, server and quorum TLS/SASL settings
 * ({@link io.securethrift.zookeeper.ZooKeeperClientSecurity}, {@link io.securethrift.zookeeper.ZooKeeperServerConfig}),
 * Conscrypt for ZooKeeper's TLS paths and engine {@code openssl} on its client port. ZooKeeper is {@code provided}.
 */
package io.securethrift.zookeeper;
