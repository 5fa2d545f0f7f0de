package io.securethrift.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * SASL part of a {@link SecurityConfig}. Immutable; built and validated by {@link SecurityConfig.Builder}.
 *
 * @param mechanism GSSAPI (Kerberos) or DIGEST-MD5 (delegation tokens)
 * @param qop acceptable protection levels, most preferred first; the negotiation never falls outside this list
 * @param digestMinStrength the weakest cipher a DIGEST-MD5 {@code auth-conf} connection may use
 * @param serverPrimary the Kerberos primary of the server principal ({@code accumulo} in {@code accumulo/host@REALM})
 * @param serverHost the host part of the server principal; empty means the host the client connects to
 * @param canonicalizeHostName whether the client resolves that host to its canonical name first, as Accumulo does
 * @param kerberosPrincipal who this process logs in as, {@code _HOST} expanded to the local canonical host name
 * @param kerberosKeytab the keytab holding that principal's keys
 * @param renewalPeriod how often the login is checked and renewed before its ticket expires
 * @param delegationToken a client's DIGEST-MD5 credentials
 * @param delegationTokenSecrets a server's DIGEST-MD5 password look-up
 * @param userImpersonation Accumulo's {@code instance.rpc.sasl.allowed.user.impersonation} rule text
 * @param hostImpersonation Accumulo's {@code instance.rpc.sasl.allowed.host.impersonation} rule text
 */
public record SaslSettings(
    SaslMechanism mechanism,
    List<QualityOfProtection> qop,
    CipherStrength digestMinStrength,
    String serverPrimary,
    Optional<String> serverHost,
    boolean canonicalizeHostName,
    Optional<String> kerberosPrincipal,
    Optional<Path> kerberosKeytab,
    Duration renewalPeriod,
    Optional<DelegationToken> delegationToken,
    Optional<DelegationTokenSecrets> delegationTokenSecrets,
    String userImpersonation,
    String hostImpersonation) {

  public SaslSettings {
    qop = List.copyOf(qop);
  }
}
