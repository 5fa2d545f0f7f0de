/**
 * Who is on the other end of a connection: {@link io.securethrift.core.identity.PeerIdentity} (on a server, read it
 * for the current call with {@code PeerIdentity.current()}), created only by the layers core loads. Also the parsers
 * and rules identities are checked with ({@link io.securethrift.core.identity.KerberosName},
 * {@link io.securethrift.core.identity.ImpersonationRules}), and {@link io.securethrift.core.identity.PeerText}, which
 * escapes whatever a peer influenced before it is logged.
 */
package io.securethrift.core.identity;
