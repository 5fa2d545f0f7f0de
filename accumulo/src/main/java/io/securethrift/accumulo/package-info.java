/**
 * Accumulo's configuration read as Accumulo writes it: {@link io.securethrift.accumulo.AccumuloSecurityConfig} maps
 * {@code accumulo.properties}, {@code accumulo-client.properties} (and 1.7's per-user keys) onto one
 * {@link io.securethrift.core.SecurityConfig}, keeping Accumulo's rules and naming the file, line and setting of every
 * bad value. Users start at {@code AccumuloSecurityConfig}; the other classes here are its parts.
 */
package io.securethrift.accumulo;
