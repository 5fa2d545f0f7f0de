package io.securethrift.core;

import io.securethrift.core.identity.KerberosName;
import java.nio.file.Path;
import java.security.Provider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The SASL part of a {@link SecurityConfig}: meaningful when {@link SecurityMode#usesSasl()}. Immutable; only
 * {@link SecurityConfig.Builder#build()} creates one, after validating every value, so a layer never sees an
 * unchecked QOP list, principal or keytab.
 *
 * <p>Defaults ({@link ConfigProperty} has the keys): mechanism GSSAPI; QOP {@code auth-conf} only; privacy
 * {@code gss}, with AES-GCM from the JVM's provider list; DIGEST-MD5 minimum strength {@code high}; server primary
 * {@code accumulo}; no server host (the host the client connects to); host names not canonicalized; no Kerberos
 * principal or keytab (the caller's existing login); renewal period 30s; no delegation token or secret look-up; no
 * impersonation rules.
 */
public final class SaslSettings {
  private final SaslMechanism mechanism;
  private final List<QualityOfProtection> qop;
  private final SaslPrivacy privacy;
  private final SaslChannelBinding channelBinding;
  private final Optional<Provider> privacyProvider;
  private final CipherStrength digestMinStrength;
  private final String serverPrimary;
  private final Optional<String> serverHost;
  private final boolean canonicalizeHostName;
  private final Optional<String> kerberosPrincipal;
  private final Optional<Path> kerberosKeytab;
  private final Duration renewalPeriod;
  private final Optional<DelegationToken> delegationToken;
  private final Optional<DelegationTokenSecrets> delegationTokenSecrets;
  private final String userImpersonation;
  private final String hostImpersonation;

  SaslSettings(SaslMechanism mechanism, List<QualityOfProtection> qop, SaslPrivacy privacy,
      SaslChannelBinding channelBinding, Optional<Provider> privacyProvider, CipherStrength digestMinStrength,
      String serverPrimary, Optional<String> serverHost, boolean canonicalizeHostName,
      Optional<String> kerberosPrincipal, Optional<Path> kerberosKeytab, Duration renewalPeriod,
      Optional<DelegationToken> delegationToken, Optional<DelegationTokenSecrets> delegationTokenSecrets,
      String userImpersonation, String hostImpersonation) {
    this.mechanism = mechanism;
    this.qop = List.copyOf(qop);
    this.privacy = privacy;
    this.channelBinding = channelBinding;
    this.privacyProvider = privacyProvider;
    this.digestMinStrength = digestMinStrength;
    this.serverPrimary = serverPrimary;
    this.serverHost = serverHost;
    this.canonicalizeHostName = canonicalizeHostName;
    this.kerberosPrincipal = kerberosPrincipal;
    this.kerberosKeytab = kerberosKeytab;
    this.renewalPeriod = renewalPeriod;
    this.delegationToken = delegationToken;
    this.delegationTokenSecrets = delegationTokenSecrets;
    this.userImpersonation = userImpersonation;
    this.hostImpersonation = hostImpersonation;
  }

  /** GSSAPI (Kerberos) or DIGEST-MD5 (delegation tokens). */
  public SaslMechanism mechanism() {
    return mechanism;
  }

  /** Acceptable protection levels, most preferred first; the negotiation never falls outside this list. */
  public List<QualityOfProtection> qop() {
    return qop;
  }

  /** How {@code auth-conf} encrypts the data phase: the mechanism's wrap, or AES-GCM keyed through it. */
  public SaslPrivacy privacy() {
    return privacy;
  }

  /** Whether Kerberos negotiations over TLS bind to the TLS connection: off, prefer or require. */
  public SaslChannelBinding channelBinding() {
    return channelBinding;
  }

  /**
   * The JCA provider whose AES/GCM/NoPadding cipher seals and opens this process's AES-GCM records; empty means the
   * first provider in the JVM's list that has one (normally the JDK's SunJCE).
   */
  public Optional<Provider> privacyProvider() {
    return privacyProvider;
  }

  /** The weakest cipher a DIGEST-MD5 {@code auth-conf} connection may use. */
  public CipherStrength digestMinStrength() {
    return digestMinStrength;
  }

  /** The Kerberos primary of the server principal ({@code accumulo} in {@code accumulo/host@REALM}). */
  public String serverPrimary() {
    return serverPrimary;
  }

  /** The host part of the server principal; empty means the host the client connects to. */
  public Optional<String> serverHost() {
    return serverHost;
  }

  /** Whether the client resolves that host to its canonical name first, as Accumulo does. */
  public boolean canonicalizeHostName() {
    return canonicalizeHostName;
  }

  /**
   * Who this process logs in as, as configured: a {@code _HOST} instance is expanded at login
   * ({@link KerberosName#withHostExpanded()}).
   */
  public Optional<String> kerberosPrincipal() {
    return kerberosPrincipal;
  }

  /** The keytab holding that principal's keys. */
  public Optional<Path> kerberosKeytab() {
    return kerberosKeytab;
  }

  /** How often the login is checked and renewed before its ticket expires. */
  public Duration renewalPeriod() {
    return renewalPeriod;
  }

  /** A client's DIGEST-MD5 credentials. */
  public Optional<DelegationToken> delegationToken() {
    return delegationToken;
  }

  /** A server's DIGEST-MD5 password look-up. */
  public Optional<DelegationTokenSecrets> delegationTokenSecrets() {
    return delegationTokenSecrets;
  }

  /** Accumulo's {@code instance.rpc.sasl.allowed.user.impersonation} rule text; empty means none. */
  public String userImpersonation() {
    return userImpersonation;
  }

  /** Accumulo's {@code instance.rpc.sasl.allowed.host.impersonation} rule text; empty means none. */
  public String hostImpersonation() {
    return hostImpersonation;
  }
}
