/**
 * Thrift SASL (GSSAPI and DIGEST-MD5) at every QOP, byte-compatible with libthrift and Accumulo, plugged into
 * {@code core} as a layer provider; securethrift's own GSSAPI mechanism with AES-GCM privacy, offered to every caller
 * of {@code javax.security.sasl} by {@link io.securethrift.sasl.SecureThriftSaslProvider}; and keytab logins.
 */
package io.securethrift.sasl;
