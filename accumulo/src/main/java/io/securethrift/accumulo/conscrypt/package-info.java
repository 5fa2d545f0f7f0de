/**
 * Conscrypt for unmodified Accumulo servers: a security provider put first by a security file
 * ({@link io.securethrift.accumulo.conscrypt.ConscryptDropIn}), so Accumulo's own JSSE calls get BoringSSL's TLS.
 */
package io.securethrift.accumulo.conscrypt;
