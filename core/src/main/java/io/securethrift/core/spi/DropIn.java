package io.securethrift.core.spi;

import io.securethrift.core.DropInSecurityFile;

/**
 * One of securethrift's drop-in security providers, which unmodified code (Accumulo, Hadoop, ZooKeeper) reaches
 * through the JDK's provider look-ups once a security properties file places it first. Found with
 * {@link java.util.ServiceLoader} and registered in {@code META-INF/services/io.securethrift.core.spi.DropIn} by the
 * module that holds the provider, so that {@link DropInSecurityFile} writes one file for every drop-in on the class
 * path.
 */
public interface DropIn {
  /** A short name by which the drop-in is chosen or left out ({@code sasl}, {@code conscrypt}). */
  String name();

  /** Adds this drop-in's provider, and whatever the JDK's list must lose or the JVM must be told for it. */
  void addTo(DropInSecurityFile.Builder file);
}
