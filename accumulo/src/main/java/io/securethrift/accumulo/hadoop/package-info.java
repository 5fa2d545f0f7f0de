/**
 * GSSAPI connections as a Hadoop {@code UserGroupInformation} login, for clients that log in the Hadoop way
 * ({@link io.securethrift.accumulo.hadoop.HadoopSasl}).
 */
package io.securethrift.accumulo.hadoop;
