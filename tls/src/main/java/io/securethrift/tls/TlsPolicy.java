package io.securethrift.tls;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigException;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.conscrypt.Conscrypt;

/**
 * The one place that decides protocols, cipher suites, client authentication and endpoint identification, in the way
 * Netty's {@code SslContextBuilder} does: the configured lists are checked against what the engine supports, and the
 * defaults are safe (TLS 1.3 and 1.2, and only the suites {@link CipherSuites} accepts).
 */
final class TlsPolicy {
  static final String PROTOCOLS_KEY = "securethrift.tls.protocols";
  static final String CIPHER_SUITES_KEY = "securethrift.tls.cipher.suites";

  private TlsPolicy() {}

  /**
   * A new engine of {@code engines} in {@code role} for a connection with {@code host}:{@code port}, with
   * {@code parameters} (this policy's, from {@link #parameters}) and, on Conscrypt, session tickets on.
   *
   * <p>Conscrypt leaves BoringSSL's {@code SSL_OP_NO_TICKET} set unless told otherwise, and BoringSSL reads that
   * option for both versions: a client offers no TLS 1.2 ticket (and a Conscrypt server, which keeps no session-id
   * cache of its own, then cannot resume TLS 1.2), and a server sends no TLS 1.3 NewSessionTicket, its only way to
   * resume TLS 1.3 (it implements no stateful TLS 1.3 resumption). Without it no Conscrypt server ever resumed a TLS
   * 1.3 session.
   */
  static SSLEngine newEngine(TlsEngineContext engines, SSLParameters parameters, Role role, String host, int port) {
    SSLEngine engine = engines.newEngine(host, port);
    // A JCA context's engines take their role here; an OpenSSL context's have it already and accept the same one.
    engine.setUseClientMode(role == Role.CLIENT);
    if (Conscrypt.isConscrypt(engine)) {
      Conscrypt.setUseSessionTickets(engine, true);
    }
    engine.setSSLParameters(parameters);
    return engine;
  }

  /** Parameters for engines of {@code engines}; checks the configured lists against what its engine supports. */
  static SSLParameters parameters(TlsEngineContext engines, TlsSettings settings, Role role) {
    SSLParameters supported = engines.supportedParameters();
    SSLParameters parameters = engines.defaultParameters();
    parameters.setProtocols(protocols(settings.protocols(), supported.getProtocols()));
    parameters.setCipherSuites(cipherSuites(settings, supported.getCipherSuites()));
    parameters.setUseCipherSuitesOrder(true);
    if (role == Role.SERVER) {
      if (settings.clientAuth() == ClientAuth.NEED) {
        parameters.setNeedClientAuth(true);
      } else if (settings.clientAuth() == ClientAuth.WANT) {
        parameters.setWantClientAuth(true);
      } else {
        parameters.setNeedClientAuth(false);
      }
    } else {
      parameters.setEndpointIdentificationAlgorithm(settings.hostnameVerification() ? "HTTPS" : null);
    }
    return parameters;
  }

  private static String[] protocols(List<String> configured, String[] supported) {
    List<String> available = Arrays.asList(supported);
    List<String> enabled = configured.stream().filter(available::contains).collect(Collectors.toList());
    if (enabled.isEmpty()) {
      throw new ConfigException(PROTOCOLS_KEY, configured + " are not supported by this TLS engine, which offers "
          + available);
    }
    return enabled.toArray(String[]::new);
  }

  /**
   * The configured suites, or the engine's suites within the rule, and under the FIPS profile within
   * {@link CipherSuites#FIPS} (a configured list was checked against it when the configuration was built).
   */
  private static String[] cipherSuites(TlsSettings settings, String[] supported) {
    List<String> configured = settings.cipherSuites();
    List<String> available = Arrays.asList(supported);
    Predicate<String> rule = settings.fips() ? CipherSuites::isFipsApproved : CipherSuites::isAeadWithForwardSecrecy;
    String[] strong = available.stream().filter(rule).toArray(String[]::new);
    if (configured.isEmpty()) {
      return strong;
    }
    List<String> unknown = new ArrayList<>();
    for (String suite : configured) {
      if (!available.contains(suite)) {
        unknown.add(suite);
      }
    }
    if (!unknown.isEmpty()) {
      throw new ConfigException(CIPHER_SUITES_KEY, unknown + " not supported by this TLS engine; it supports "
          + String.join(", ", strong) + " (the suites securethrift accepts shown)");
    }
    return configured.toArray(String[]::new);
  }
}
