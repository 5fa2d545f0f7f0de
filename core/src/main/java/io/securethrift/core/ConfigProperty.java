package io.securethrift.core;

import io.securethrift.core.internal.TlsVersions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every setting securethrift reads, with the exact key users type, its default and what it means. This list is the
 * single source of the configuration reference in {@code docs/configuration.md}; a test keeps the two identical.
 */
public enum ConfigProperty {
  MODE("securethrift.mode", Type.CHOICE, "none", Validator.oneOf(SecurityMode.values(), SecurityMode::token),
      "How connections are secured: none, tls, sasl, or sasl-over-tls (Kerberos authenticates, TLS protects).",
      (b, v) -> b.mode(SecurityMode.parse(keyOf("MODE"), v)), c -> c.mode().token()),
  FIPS("securethrift.fips", Type.BOOLEAN, "false", Validator.ANY,
      "FIPS profile: refuses, each with an error naming the setting and why, cipher suites outside "
          + CipherSuites.FIPS_RULE + " (no ChaCha20-Poly1305, CBC, 3DES or RC4), weak suites, DIGEST-MD5 (mechanism and"
          + " delegation tokens) and AES-GCM SASL privacy (X25519 key agreement); the TLS layer then enables only those"
          + " suites and refuses key and trust stores holding RSA keys under 2048 bits or EC keys off P-256, P-384 and"
          + " P-521, and peers' certificates likewise. Restricts what securethrift chooses and accepts; FIPS 140-3"
          + " validation needs a validated provider in the JVM, which this does not install. See docs/tls.md.",
      (b, v) -> b.fips(Values.bool(keyOf("FIPS"), v)), c -> Boolean.toString(c.fips())),

  TLS_ENGINE("securethrift.tls.engine", Type.CHOICE, "auto",
      Validator.documented("auto, jsse, conscrypt, openssl, or another engine a module contributes"),
      "TLS implementation: jsse (the JDK's), conscrypt (BoringSSL; securethrift-tls), auto (the first engine that"
          + " runs here in the engines' order: Conscrypt when its native library loads, else JSSE; resolved once and"
          + " logged), or openssl (Netty's OpenSSL engine, BoringSSL; securethrift-tls, with netty-handler and"
          + " io.netty:netty-tcnative-boringssl-static on the class path). With TLS on, an engine that cannot run"
          + " here is refused when the configuration is built.",
      (b, v) -> b.tlsEngine(TlsEngine.parse(keyOf("TLS_ENGINE"), v)), c -> c.tls().engineSetting().token()),
  TLS_PROTOCOLS("securethrift.tls.protocols", Type.LIST, TlsVersions.asProperty(), Validator.tlsVersions(),
      "Enabled TLS versions, comma-separated; only " + String.join(" and ", TlsVersions.ACCEPTED) + " are accepted.",
      (b, v) -> b.tlsProtocols(Tokens.splitList(v)), c -> String.join(",", c.tls().protocols())),
  TLS_CIPHER_SUITES("securethrift.tls.cipher.suites", Type.LIST, "", Validator.cipherSuiteNames(),
      "Enabled cipher suites, comma-separated, on clients and servers alike; empty means the engine's suites among "
          + CipherSuites.RULE + ". Any other suite is refused unless securethrift.tls.allow.weak.cipher.suites=true.",
      (b, v) -> b.tlsCipherSuites(Tokens.splitList(v)), c -> String.join(",", c.tls().cipherSuites())),
  TLS_ALLOW_WEAK_CIPHER_SUITES("securethrift.tls.allow.weak.cipher.suites", Type.BOOLEAN, "false", Validator.ANY,
      "Lets securethrift.tls.cipher.suites name suites outside that rule (CBC, RSA or DHE key exchange, PSK), for"
          + " peers that support nothing better; a warning is logged once.",
      (b, v) -> b.allowWeakCipherSuites(Values.bool(keyOf("TLS_ALLOW_WEAK_CIPHER_SUITES"), v)),
      c -> Boolean.toString(c.tls().allowWeakCipherSuites())),
  TLS_KEYSTORE_PATH("securethrift.tls.keystore.path", Type.PATH, "", Validator.readableFile(),
      "This side's certificate chain and private key (JKS, PKCS12 or PEM). Required on TLS servers; on clients it is"
          + " presented when the server asks.",
      (b, v) -> b.keyStorePath(pathOrNull(keyOf("TLS_KEYSTORE_PATH"), v)),
      c -> c.tls().keyStore().map(s -> s.path().toString()).orElse("")),
  TLS_KEYSTORE_PASSWORD("securethrift.tls.keystore.password", Type.PASSWORD, "", Validator.ANY,
      "Password of the key store (for PEM: of the encrypted private key).",
      (b, v) -> b.keyStorePassword(secretOrNull(v)), c -> secretText(c.tls().keyStore())),
  TLS_KEYSTORE_TYPE("securethrift.tls.keystore.type", Type.CHOICE, "",
      Validator.oneOf(StoreType.values(), StoreType::token),
      "jks, pkcs12 or pem; empty means detected from the file.",
      (b, v) -> b.keyStoreType(typeOrNull(keyOf("TLS_KEYSTORE_TYPE"), v)),
      c -> c.tls().keyStore().map(s -> s.type().token()).orElse("")),
  TLS_KEYSTORE_ALIAS("securethrift.tls.keystore.alias", Type.TEXT, "", Validator.ANY,
      "Which key entry to use when the key store holds several.",
      (b, v) -> b.keyStoreAlias(blankToNull(v)), c -> c.tls().keyStore().flatMap(StoreLocation::alias).orElse("")),
  TLS_TRUSTSTORE_PATH("securethrift.tls.truststore.path", Type.PATH, "", Validator.readableFile(),
      "Certificates this side trusts (JKS, PKCS12 or PEM); empty means the JVM's default trust store, which a server"
          + " asking for client certificates may not use.",
      (b, v) -> b.trustStorePath(pathOrNull(keyOf("TLS_TRUSTSTORE_PATH"), v)),
      c -> c.tls().trustStore().map(s -> s.path().toString()).orElse("")),
  TLS_TRUSTSTORE_PASSWORD("securethrift.tls.truststore.password", Type.PASSWORD, "", Validator.ANY,
      "Password of the trust store, if it has one.",
      (b, v) -> b.trustStorePassword(secretOrNull(v)), c -> secretText(c.tls().trustStore())),
  TLS_TRUSTSTORE_TYPE("securethrift.tls.truststore.type", Type.CHOICE, "",
      Validator.oneOf(StoreType.values(), StoreType::token),
      "jks, pkcs12 or pem; empty means detected from the file.",
      (b, v) -> b.trustStoreType(typeOrNull(keyOf("TLS_TRUSTSTORE_TYPE"), v)),
      c -> c.tls().trustStore().map(s -> s.type().token()).orElse("")),
  TLS_CLIENT_AUTH("securethrift.tls.client.auth", Type.CHOICE, "none",
      Validator.oneOf(ClientAuth.values(), ClientAuth::token),
      "Whether a TLS server asks for client certificates: none, want, or need. want and need require"
          + " securethrift.tls.truststore.path.",
      (b, v) -> b.clientAuth(ClientAuth.parse(keyOf("TLS_CLIENT_AUTH"), v)), c -> c.tls().clientAuth().token()),
  TLS_HOSTNAME_VERIFICATION("securethrift.tls.hostname.verification", Type.BOOLEAN, "true", Validator.ANY,
      "Whether a client checks the server certificate's DNS or IP subject alternative names against the host it"
          + " connects to. Turning it off logs a warning.",
      (b, v) -> b.hostnameVerification(Values.bool(keyOf("TLS_HOSTNAME_VERIFICATION"), v)),
      c -> Boolean.toString(c.tls().hostnameVerification())),
  TLS_PRINCIPAL_MAPPING("securethrift.tls.principal.mapping", Type.CHOICE, "cn",
      Validator.oneOf(PrincipalMapping.values(), PrincipalMapping::token),
      "How a server names a client from its certificate: subject, cn, san-dns, san-email or san-uri.",
      (b, v) -> b.principalMapping(PrincipalMapping.parse(keyOf("TLS_PRINCIPAL_MAPPING"), v)),
      c -> c.tls().principalMapping().token()),
  TLS_RELOAD_INTERVAL("securethrift.tls.reload.interval", Type.DURATION, "10s", Validator.nonNegativeDuration(),
      "How often, at most, key, trust and CRL files are read and compared by content, on the next new handshake after"
          + " the interval (symbolic links are followed on every read, so a Kubernetes secret's ..data swap is seen);"
          + " new handshakes use new material, open connections carry on. 0 disables reloading.",
      (b, v) -> b.tlsReloadInterval(Values.duration(keyOf("TLS_RELOAD_INTERVAL"), v)),
      c -> Values.formatDuration(c.tls().reloadInterval())),
  TLS_RELOAD_IDENTITY_CHANGE("securethrift.tls.reload.identity.change", Type.CHOICE, "refuse",
      Validator.oneOf(IdentityChange.values(), IdentityChange::token),
      "What a reload does when this side's new certificate names another identity than the one in use (another"
          + " subject, another set of subject alternative names, or another first DNS, email or URI name, which the"
          + " san-* principal mappings read): refuse (keep the previous key and trust material and log a warning"
          + " naming the file, both identities and this key) or allow. Trust store changes are always taken.",
      (b, v) -> b.tlsReloadIdentityChange(IdentityChange.parse(keyOf("TLS_RELOAD_IDENTITY_CHANGE"), v)),
      c -> c.tls().reloadIdentityChange().token()),
  TLS_REVOCATION_CRL_FILES("securethrift.tls.revocation.crl.files", Type.LIST, "", Validator.readableFiles(),
      "CRL files (PEM or DER), comma-separated: a peer certificate one of them lists as revoked is refused, and so is"
          + " one whose issuer has no current CRL among them unless OCSP answers for it. Reloaded with the key and"
          + " trust files (securethrift.tls.reload.interval). Empty: no CRL checking.",
      (b, v) -> b.crlFiles(paths(keyOf("TLS_REVOCATION_CRL_FILES"), v)),
      c -> c.tls().crlFiles().stream().map(Path::toString).collect(Collectors.joining(","))),
  TLS_REVOCATION_OCSP("securethrift.tls.revocation.ocsp", Type.CHOICE, "off",
      Validator.oneOf(OcspMode.values(), OcspMode::token),
      "Whether the peer's certificates are checked with OCSP: off, soft-fail (a revoked certificate is refused; a"
          + " responder that cannot be reached or answer lets the handshake through and logs a warning) or hard-fail"
          + " (a certificate whose status cannot be determined is refused). CRL files, when given, answer when OCSP"
          + " cannot.",
      (b, v) -> b.ocsp(OcspMode.parse(keyOf("TLS_REVOCATION_OCSP"), v)), c -> c.tls().ocsp().token()),
  TLS_REVOCATION_OCSP_RESPONDER("securethrift.tls.revocation.ocsp.responder", Type.TEXT, "", Validator.httpUrl(),
      "The OCSP responder asked about every certificate, overriding the one each names in its Authority Information"
          + " Access extension; empty means each certificate's own.",
      (b, v) -> b.ocspResponder(uriOrNull(keyOf("TLS_REVOCATION_OCSP_RESPONDER"), v)),
      c -> c.tls().ocspResponder().map(URI::toString).orElse("")),
  TLS_REVOCATION_OCSP_CACHE_MAX("securethrift.tls.revocation.ocsp.cache.max", Type.DURATION, "3600s",
      Validator.nonNegativeDuration(),
      "How long, at most, an OCSP response is reused for later handshakes; a response is kept until its nextUpdate"
          + " or this, whichever comes first, and one without nextUpdate is not kept. Responses are fetched with"
          + " BouncyCastle (org.bouncycastle:bcpkix-jdk18on); a responder that cannot be reached is not asked again"
          + " for 30 seconds. 0 disables the cache: the JDK asks the responder at every full handshake.",
      (b, v) -> b.ocspCacheMax(Values.duration(keyOf("TLS_REVOCATION_OCSP_CACHE_MAX"), v)),
      c -> Values.formatDuration(c.tls().ocspCacheMax())),
  TLS_REVOCATION_OCSP_STAPLING("securethrift.tls.revocation.ocsp.stapling", Type.BOOLEAN, "false", Validator.ANY,
      "Whether a TLS server staples the OCSP response for its own certificate to its handshakes (status_request), so"
          + " clients need not ask the responder; the key store's chain must hold the issuer. Engine jsse: the JDK"
          + " fetches and caches the response itself and needs -Djdk.tls.server.enableStatusRequestExtension=true on"
          + " the server's JVM, or the server is refused at start. Engine openssl: securethrift fetches it (with"
          + " BouncyCastle) when the key material is loaded and before its nextUpdate, and a handshake staples none"
          + " while none can be had. Engine conscrypt is refused at start. Default false.",
      (b, v) -> b.ocspStapling(Values.bool(keyOf("TLS_REVOCATION_OCSP_STAPLING"), v)),
      c -> Boolean.toString(c.tls().ocspStapling())),

  SASL_MECHANISM("securethrift.sasl.mechanism", Type.CHOICE, "GSSAPI",
      Validator.oneOf(SaslMechanism.values(), SaslMechanism::mechanismName),
      "SASL mechanism: GSSAPI (Kerberos) or DIGEST-MD5 (Accumulo delegation tokens).",
      (b, v) -> b.saslMechanism(SaslMechanism.parse(keyOf("SASL_MECHANISM"), v)),
      c -> c.sasl().mechanism().mechanismName()),
  SASL_QOP("securethrift.sasl.qop", Type.LIST, "auth-conf", Validator.qopLevels(),
      "Acceptable protection levels, most preferred first: auth, auth-int, auth-conf (for example auth-conf,auth-int)."
          + " A connection fails when the two sides' lists share nothing; it never falls back silently. auth leaves the"
          + " RPCs after authentication unprotected unless the mode is sasl-over-tls.",
      (b, v) -> b.qop(QualityOfProtection.parseList(keyOf("SASL_QOP"), v)),
      c -> QualityOfProtection.toSaslProperty(c.sasl().qop())),
  SASL_PRIVACY("securethrift.sasl.privacy", Type.CHOICE, "gss",
      Validator.oneOf(SaslPrivacy.values(), SaslPrivacy::token),
      "How auth-conf encrypts RPCs: gss (the mechanism wraps every frame, as every Thrift SASL peer does), aes-gcm"
          + " (AES-GCM records, between securethrift peers or peers with its SASL provider; GSSAPI agrees the keys"
          + " inside its Kerberos exchange, DIGEST-MD5 in a key exchange after it; a peer without it is refused) or"
          + " aes-gcm-preferred (aes-gcm when the peer speaks it, else gss; a DIGEST-MD5 client reconnects once to"
          + " fall back). Needs auth-conf in securethrift.sasl.qop; see docs/sasl-privacy.md.",
      (b, v) -> b.saslPrivacy(SaslPrivacy.parse(keyOf("SASL_PRIVACY"), v)), c -> c.sasl().privacy().token()),
  SASL_CHANNEL_BINDING("securethrift.sasl.channel.binding", Type.CHOICE, "prefer",
      Validator.oneOf(SaslChannelBinding.values(), SaslChannelBinding::token),
      "Whether Kerberos (GSSAPI) in mode sasl-over-tls is bound to the TLS connection under it, so a man in the middle"
          + " holding another trusted certificate cannot relay a client's Kerberos authentication to the real server:"
          + " prefer (bind with a securethrift peer, still accept a peer that cannot bind), require (refuse a peer"
          + " that does not bind) or off. A binding that differs from this side's is refused unless off. DIGEST-MD5"
          + " is not bound. See docs/tls.md.",
      (b, v) -> b.saslChannelBinding(SaslChannelBinding.parse(keyOf("SASL_CHANNEL_BINDING"), v)),
      c -> c.sasl().channelBinding().token()),
  SASL_DIGEST_MIN_STRENGTH("securethrift.sasl.digest.min.strength", Type.CHOICE, "high",
      Validator.oneOf(CipherStrength.values(), CipherStrength::token),
      "Weakest cipher a DIGEST-MD5 auth-conf connection may use, on either side: high (3des only), medium (adds des"
          + " and RC4: rc4, rc4-56) or low (adds the 40-bit rc4-40). RC4 is rated below the JDK's rating, as broken"
          + " (RFC 7465). A server offers only these ciphers; a connection that negotiates a weaker one is refused."
          + " AES-GCM privacy (securethrift.sasl.privacy) needs high.",
      (b, v) -> b.digestMinStrength(CipherStrength.parse(keyOf("SASL_DIGEST_MIN_STRENGTH"), v)),
      c -> c.sasl().digestMinStrength().token()),
  SASL_SERVER_PRIMARY("securethrift.sasl.kerberos.server.primary", Type.TEXT, "accumulo", Validator.kerberosPrimary(),
      "Kerberos primary of the server principal, as in primary/host@REALM.",
      (b, v) -> b.serverPrimary(v), c -> c.sasl().serverPrimary()),
  SASL_SERVER_HOST("securethrift.sasl.server.host", Type.TEXT, "", Validator.hostName(),
      "Host part of the server principal; empty means the host the client connects to.",
      (b, v) -> b.serverHost(blankToNull(v)), c -> c.sasl().serverHost().orElse("")),
  SASL_CANONICALIZE_HOSTNAME("securethrift.sasl.canonicalize.hostname", Type.BOOLEAN, "false", Validator.ANY,
      "Whether a client resolves the server host to its canonical name (reverse DNS) before naming the principal, as"
          + " Accumulo does.",
      (b, v) -> b.canonicalizeHostName(Values.bool(keyOf("SASL_CANONICALIZE_HOSTNAME"), v)),
      c -> Boolean.toString(c.sasl().canonicalizeHostName())),
  SASL_KERBEROS_PRINCIPAL("securethrift.sasl.kerberos.principal", Type.TEXT, "", Validator.kerberosPrincipal(),
      "Principal this process logs in as from the keytab; _HOST becomes the local canonical host name. Empty uses the"
          + " caller's existing Kerberos login.",
      (b, v) -> b.kerberosPrincipal(blankToNull(v)), c -> c.sasl().kerberosPrincipal().orElse("")),
  SASL_KERBEROS_KEYTAB("securethrift.sasl.kerberos.keytab", Type.PATH, "", Validator.readableFile(),
      "Keytab holding the principal's keys; set together with securethrift.sasl.kerberos.principal.",
      (b, v) -> b.kerberosKeytab(pathOrNull(keyOf("SASL_KERBEROS_KEYTAB"), v)),
      c -> c.sasl().kerberosKeytab().map(Path::toString).orElse("")),
  SASL_KERBEROS_RENEWAL_PERIOD("securethrift.sasl.kerberos.renewal.period", Type.DURATION, "30s",
      Validator.positiveDuration(),
      "How often a client's Kerberos login checks its ticket and renews it before it expires; servers log in"
          + " acceptor-only (keytab keys, no ticket) and renew nothing.",
      (b, v) -> b.renewalPeriod(Values.duration(keyOf("SASL_KERBEROS_RENEWAL_PERIOD"), v)),
      c -> Values.formatDuration(c.sasl().renewalPeriod())),
  SASL_USER_IMPERSONATION("securethrift.sasl.impersonation.users", Type.TEXT, "", Validator.ANY,
      "Who may act for whom, in Accumulo's syntax: proxy:userA,userB;proxy2:*",
      (b, v) -> b.userImpersonation(v), c -> c.sasl().userImpersonation()),
  SASL_HOST_IMPERSONATION("securethrift.sasl.impersonation.hosts", Type.TEXT, "", Validator.ANY,
      "From which hosts each impersonating principal may connect, one ;-separated entry per user rule: host1,host2;*",
      (b, v) -> b.hostImpersonation(v), c -> c.sasl().hostImpersonation()),

  TIMEOUT_CONNECT("securethrift.timeout.connect", Type.DURATION, "10s", Validator.positiveDuration(),
      "How long a client waits for TCP to connect.",
      (b, v) -> b.connectTimeout(Values.duration(keyOf("TIMEOUT_CONNECT"), v)),
      c -> Values.formatDuration(c.timeouts().connect())),
  TIMEOUT_READ("securethrift.timeout.read", Type.DURATION, "120s", Validator.nonNegativeDuration(),
      "How long either side waits for the next bytes of a message (Accumulo's general.rpc.timeout); 0 waits forever.",
      (b, v) -> b.readTimeout(Values.duration(keyOf("TIMEOUT_READ"), v)),
      c -> Values.formatDuration(c.timeouts().read())),
  TIMEOUT_HANDSHAKE("securethrift.timeout.handshake", Type.DURATION, "10s", Validator.positiveDuration(),
      "Deadline for the whole TLS handshake and SASL negotiation; a peer that stalls is dropped and its thread freed.",
      (b, v) -> b.handshakeTimeout(Values.duration(keyOf("TIMEOUT_HANDSHAKE"), v)),
      c -> Values.formatDuration(c.timeouts().handshake())),

  CLIENT_CONNECTION_MAX_AGE("securethrift.client.connection.max.age", Type.DURATION, "0s",
      Validator.nonNegativeDuration(),
      "How long a client uses a connection: the first call after this age opens a new connection (a new"
          + " handshake) and sends the call there, before any byte of it went out on the old one. Set it below the"
          + " server's securethrift.server.connection.max.age by more than a request takes to reach the server, so"
          + " the client retires a connection before the server closes it. 0 keeps a connection for any age.",
      (b, v) -> b.clientConnectionMaxAge(Values.duration(keyOf("CLIENT_CONNECTION_MAX_AGE"), v)),
      c -> Values.formatDuration(c.timeouts().clientConnectionMaxAge())),

  LIMIT_MAX_FRAME_SIZE("securethrift.limit.max.frame.size", Type.SIZE, "16M",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Largest data frame either side accepts, checked before any allocation (1K to 2047M).",
      (b, v) -> b.maxFrameSize(Values.size(keyOf("LIMIT_MAX_FRAME_SIZE"), v)),
      c -> Values.formatSize(c.limits().maxFrameSize())),
  LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE("securethrift.limit.max.negotiation.message.size", Type.SIZE, "64K",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Largest SASL negotiation message accepted before authentication (Kerberos tokens are a few KiB).",
      (b, v) -> b.maxNegotiationMessageSize(Values.size(keyOf("LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE"), v)),
      c -> Values.formatSize(c.limits().maxNegotiationMessageSize())),

  AUDIT_FORMAT("securethrift.audit.format", Type.CHOICE, "text",
      Validator.oneOf(AuditFormat.values(), AuditFormat::token),
      "Layout of a server's audit log lines (logger securethrift.audit, one line per handshake outcome): text"
          + " (key=value pairs) or json (one object per line). See docs/audit.md.",
      (b, v) -> b.auditFormat(AuditFormat.parse(keyOf("AUDIT_FORMAT"), v)), c -> c.auditFormat().token()),
  SERVER_MAX_CONNECTIONS("securethrift.server.max.connections", Type.COUNT, "10000",
      Validator.countBetween(1, 1_000_000),
      "Non-blocking server: open connections at most; one more is closed at once (the blocking server is bounded by"
          + " its threads instead).",
      (b, v) -> b.maxConnections(Values.count(keyOf("SERVER_MAX_CONNECTIONS"), v)),
      c -> Integer.toString(c.server().maxConnections())),
  SERVER_MAX_THREADS("securethrift.server.max.threads", Type.COUNT, "256", Validator.countBetween(1, 100_000),
      "Thread-pool server (ServerTransportFactory.threadPoolServerArgs): worker threads at most. Each connection holds"
          + " one from its handshake to its close, so this also bounds that server's connections: libthrift closes a"
          + " connection accepted while every thread is busy.",
      (b, v) -> b.maxThreads(Values.count(keyOf("SERVER_MAX_THREADS"), v)),
      c -> Integer.toString(c.server().maxThreads())),
  SERVER_MAX_UNAUTHENTICATED("securethrift.server.max.unauthenticated.connections", Type.COUNT, "1000",
      Validator.countBetween(1, 1_000_000),
      "Non-blocking server: connections still in their TLS handshake or SASL negotiation at most; each has"
          + " securethrift.timeout.handshake to finish.",
      (b, v) -> b.maxUnauthenticatedConnections(Values.count(keyOf("SERVER_MAX_UNAUTHENTICATED"), v)),
      c -> Integer.toString(c.server().maxUnauthenticatedConnections())),
  SERVER_MAX_PER_ADDRESS("securethrift.server.max.connections.per.address", Type.COUNT, "1000",
      Validator.countBetween(1, 1_000_000),
      "Non-blocking server: open connections from one remote IP address at most.",
      (b, v) -> b.maxConnectionsPerAddress(Values.count(keyOf("SERVER_MAX_PER_ADDRESS"), v)),
      c -> Integer.toString(c.server().maxConnectionsPerAddress())),
  SERVER_MAX_UNAUTHENTICATED_PER_ADDRESS("securethrift.server.max.unauthenticated.connections.per.address",
      Type.COUNT, "64", Validator.countBetween(1, 1_000_000),
      "Non-blocking server: connections still in their handshakes from one remote address at most; one more from it"
          + " is closed at once, so that no address can hold the whole pool of"
          + " securethrift.server.max.unauthenticated.connections.",
      (b, v) -> b.maxUnauthenticatedConnectionsPerAddress(
          Values.count(keyOf("SERVER_MAX_UNAUTHENTICATED_PER_ADDRESS"), v)),
      c -> Integer.toString(c.server().maxUnauthenticatedConnectionsPerAddress())),
  SERVER_IPV6_PREFIX("securethrift.server.address.ipv6.prefix", Type.COUNT, "64", Validator.countBetween(1, 128),
      "How many leading bits of an IPv6 address the per-address limits count as one address (a host usually holds a"
          + " whole /64, so counting single addresses would give it unlimited ones).",
      (b, v) -> b.ipv6Prefix(Values.count(keyOf("SERVER_IPV6_PREFIX"), v)),
      c -> Integer.toString(c.server().ipv6Prefix())),
  SERVER_CONNECTION_RATE_PER_ADDRESS("securethrift.server.connection.rate.per.address", Type.COUNT, "0",
      Validator.countBetween(0, 1_000_000),
      "Both server models: new connections per second from one remote address (IPv6 grouped by"
          + " securethrift.server.address.ipv6.prefix), with bursts of up to one second's worth; one more is closed as"
          + " it is accepted, before any TLS or SASL work, and audited as over-limit. Every new connection counts, as"
          + " the server cannot tell a resumed TLS handshake from a full one before reading it. 0 turns it off.",
      (b, v) -> b.connectionRatePerAddress(Values.count(keyOf("SERVER_CONNECTION_RATE_PER_ADDRESS"), v)),
      c -> Integer.toString(c.server().connectionRatePerAddress())),
  SERVER_CONNECTION_RATE_MAX("securethrift.server.connection.rate.max", Type.COUNT, "0",
      Validator.countBetween(0, 1_000_000),
      "Both server models: new connections per second from all addresses together, with bursts of up to one second's"
          + " worth; one more is closed as it is accepted, before any TLS or SASL work, and audited as over-limit."
          + " A connection refused by securethrift.server.connection.rate.per.address does not count here. 0 turns it"
          + " off.",
      (b, v) -> b.connectionRateMax(Values.count(keyOf("SERVER_CONNECTION_RATE_MAX"), v)),
      c -> Integer.toString(c.server().connectionRateMax())),
  SERVER_IDLE_TIMEOUT("securethrift.server.idle.timeout", Type.DURATION, "600s", Validator.nonNegativeDuration(),
      "Non-blocking server: how long an authenticated connection may stay silent between calls; 0 keeps it open.",
      (b, v) -> b.serverIdleTimeout(Values.duration(keyOf("SERVER_IDLE_TIMEOUT"), v)),
      c -> Values.formatDuration(c.server().idleTimeout())),
  SERVER_CONNECTION_MAX_AGE("securethrift.server.connection.max.age", Type.DURATION, "0s",
      Validator.nonNegativeDuration(),
      "Both server models: how long an authenticated connection may live, from its accept; once older it is closed"
          + " at the next point no call is in progress (after the reply to the call under way is written, or while"
          + " it waits for a call), never during a call, and audited with cause max-age. Clients then reconnect,"
          + " authenticating afresh (re-reading certificates, CRLs and tickets). 0 keeps connections for any age.",
      (b, v) -> b.serverConnectionMaxAge(Values.duration(keyOf("SERVER_CONNECTION_MAX_AGE"), v)),
      c -> Values.formatDuration(c.server().connectionMaxAge())),
  SERVER_KERBEROS_CLOSE_AT_TICKET_END("securethrift.server.kerberos.close.at.ticket.end", Type.BOOLEAN, "true",
      Validator.ANY,
      "Both server models: whether a Kerberos (GSSAPI) connection is closed once the service ticket its client"
          + " authenticated with has ended, at the next point no call is in progress, like"
          + " securethrift.server.connection.max.age (the earlier of the two applies), audited with cause"
          + " ticket-expired. The client reconnects with a fresh ticket, or is refused if the KDC no longer issues"
          + " one, so a disabled principal loses its connections within a ticket lifetime. The JDK does not tell an"
          + " acceptor the ticket's end, so true needs Apache Kerby's crypto (org.apache.kerby:kerb-crypto) on a GSSAPI"
          + " server's class path to read it from the ticket; a server without it refuses to start. false keeps"
          + " connections past their ticket.",
      (b, v) -> b.closeAtTicketEnd(Values.bool(keyOf("SERVER_KERBEROS_CLOSE_AT_TICKET_END"), v)),
      c -> Boolean.toString(c.server().closeAtTicketEnd())),
  SERVER_PORT_UNIFICATION("securethrift.server.port.unification", Type.BOOLEAN, "false", Validator.ANY,
      "Both server models, modes tls and sasl-over-tls: whether the TLS port also serves plaintext clients (framed"
          + " Thrift, no TLS, no SASL), told apart by each connection's first byte (every TLS handshake starts 0x16),"
          + " read under securethrift.timeout.handshake; for turning TLS on without downtime (docs/tls.md). Each"
          + " plaintext connection is served as anonymous (its identity's mode is none), audited and counted with"
          + " cause plaintext. The port turns TLS-only without a restart: JMX attribute PlaintextAccepted of"
          + " io.securethrift:type=Server,port=<port> set to false, or refusePlaintext() on the server; from then on a"
          + " plaintext connection is refused, cause plaintext. Refused with modes none and sasl, and with"
          + " securethrift.limit.max.frame.size of 352M or more, where a frame's length could start 0x16.",
      (b, v) -> b.portUnification(Values.bool(keyOf("SERVER_PORT_UNIFICATION"), v)),
      c -> Boolean.toString(c.server().portUnification())),
  SERVER_WRITE_BUFFER_LOW("securethrift.server.write.buffer.low", Type.SIZE, "32K",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Non-blocking server: pending reply bytes under which a connection is writable again (low watermark).",
      (b, v) -> b.writeBufferLow(Values.size(keyOf("SERVER_WRITE_BUFFER_LOW"), v)),
      c -> Values.formatSize(c.server().writeBufferLow())),
  SERVER_WRITE_BUFFER_HIGH("securethrift.server.write.buffer.high", Type.SIZE, "64K",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Non-blocking server: pending reply bytes over which a connection is not writable (high watermark); above"
          + " securethrift.server.write.buffer.low.",
      (b, v) -> b.writeBufferHigh(Values.size(keyOf("SERVER_WRITE_BUFFER_HIGH"), v)),
      c -> Values.formatSize(c.server().writeBufferHigh())),
  SERVER_WRITE_BUFFER_FATAL("securethrift.server.write.buffer.fatal", Type.SIZE, "64M",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Non-blocking server: pending reply bytes over which the connection is closed (its peer is not reading); at"
          + " least securethrift.server.write.buffer.high.",
      (b, v) -> b.writeBufferFatal(Values.size(keyOf("SERVER_WRITE_BUFFER_FATAL"), v)),
      c -> Values.formatSize(c.server().writeBufferFatal())),
  SERVER_PENDING_REPLIES_MAX("securethrift.server.pending.replies.max", Type.SIZE, "64M",
      Validator.sizeBetween(SecurityConfig.MIN_FRAME_SIZE, SecurityConfig.MAX_FRAME_SIZE),
      "Bytes of replies waiting, across all connections, for peers that do not take them; over it the connection"
          + " whose reply has waited longest is closed, so many peers that stop reading cannot make the server hold a"
          + " reply each. The non-blocking server counts the replies it could not write at once, the thread-pool"
          + " server every reply over 64 KiB while its worker writes it.",
      (b, v) -> b.pendingRepliesMax(Values.size(keyOf("SERVER_PENDING_REPLIES_MAX"), v)),
      c -> Values.formatSize(c.server().pendingRepliesMax()));

  /** The form a setting's value takes in a properties file. */
  public enum Type {
    /** Free text. */
    TEXT,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A whole number with {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}; a bare number is seconds. */
    DURATION,
    /** Bytes, optionally with {@code K}, {@code M} or {@code G} (binary multiples). */
    SIZE,
    /** A whole number. */
    COUNT,
    /** Comma-separated values. */
    LIST,
    /** One token out of a fixed set. */
    CHOICE,
    /** A file path. */
    PATH,
    /** A secret, never shown. */
    PASSWORD;

    /** The lower-case name the configuration reference shows. */
    public String token() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final String key;
  private final Type type;
  private final String defaultValue;
  private final Validator validator;
  private final String description;
  private final BiConsumer<SecurityConfig.Builder, String> applier;
  private final Function<SecurityConfig, String> reader;

  ConfigProperty(String key, Type type, String defaultValue, Validator validator, String description,
      BiConsumer<SecurityConfig.Builder, String> applier, Function<SecurityConfig, String> reader) {
    this.key = key;
    this.type = type;
    this.defaultValue = defaultValue;
    this.validator = validator;
    this.description = description;
    this.applier = applier;
    this.reader = reader;
  }

  /** The exact key, as written in a properties file. */
  public String key() {
    return key;
  }

  /** The default, as text; empty means "not set". */
  public String defaultValue() {
    return defaultValue;
  }

  /** The form of the value. */
  public Type type() {
    return type;
  }

  /** Which values are accepted beyond the form of {@link #type()}, in words; empty when any value of the form is. */
  public String accepted() {
    return validator.accepted();
  }

  /** What the setting means, as the configuration reference shows it. */
  public String description() {
    return description;
  }

  /** Whether the value is a secret, which {@code toString} and the docs never show. */
  public boolean isSecret() {
    return type == Type.PASSWORD;
  }

  /** Checks a typed value against this setting's own rule, raising a {@link ConfigException} under its key. */
  <T> T valid(T value) {
    validator.check(key, value);
    return value;
  }

  /** The value for {@link SecurityConfig#toString()}: a secret that is set shows as {@code ****}, never as text. */
  String shown(SecurityConfig config) {
    if (this == TLS_KEYSTORE_PASSWORD) {
      return masked(config.tls().keyStore());
    }
    if (this == TLS_TRUSTSTORE_PASSWORD) {
      return masked(config.tls().trustStore());
    }
    return read(config);
  }

  private static String masked(Optional<StoreLocation> store) {
    return store.flatMap(StoreLocation::password).isPresent() ? "****" : "";
  }

  /** Looks a key up; empty when no property has that key. */
  public static Optional<ConfigProperty> forKey(String key) {
    return Arrays.stream(values()).filter(p -> p.key.equals(key)).findFirst();
  }

  void apply(SecurityConfig.Builder builder, String value) {
    applier.accept(builder, value);
  }

  String read(SecurityConfig config) {
    return reader.apply(config);
  }

  // Enum constants cannot name themselves in their own initializers, so the lambdas look the key up by constant name.
  private static String keyOf(String constant) {
    return valueOf(constant).key;
  }

  private static Path pathOrNull(String key, String v) {
    if (v == null || v.isBlank()) {
      return null;
    }
    try {
      return Path.of(v.trim());
    } catch (InvalidPathException e) {
      throw new ConfigException(key, "'" + v.trim() + "' is not a file path: " + e.getReason());
    }
  }

  private static List<Path> paths(String key, String v) {
    return Tokens.splitList(v).stream().map(p -> pathOrNull(key, p)).collect(Collectors.toList());
  }

  private static URI uriOrNull(String key, String v) {
    if (v == null || v.isBlank()) {
      return null;
    }
    try {
      return new URI(v.trim());
    } catch (URISyntaxException e) {
      throw new ConfigException(key, "'" + v.trim() + "' is not a URL: " + e.getReason()
          + "; give the responder's http URL, for example http://ocsp.example.com:8080");
    }
  }

  private static Secret secretOrNull(String v) {
    return v == null || v.isEmpty() ? null : Secret.of(v);
  }

  private static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static StoreType typeOrNull(String key, String v) {
    return v == null || v.isBlank() ? null : StoreType.parse(key, v);
  }

  private static String secretText(Optional<StoreLocation> store) {
    return store.flatMap(StoreLocation::password).map(s -> new String(s.chars())).orElse("");
  }
}
