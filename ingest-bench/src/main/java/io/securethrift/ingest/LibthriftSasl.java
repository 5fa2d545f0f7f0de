package io.securethrift.ingest;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.KerberosName;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.stream.Collectors;
import javax.security.auth.Subject;
import javax.security.auth.login.LoginException;
import javax.security.sasl.Sasl;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * What the ingest server and client need to run on libthrift's own SASL transports, GSSAPI as Accumulo sets them up:
 * a keytab login, the SASL properties Accumulo passes (only {@code Sasl.QOP}), and each transport created and opened
 * as the login. No securethrift SASL setting is passed: how {@code auth-conf} encrypts is up to whichever mechanism
 * the JVM's providers give, as it is for unmodified Accumulo.
 */
public final class LibthriftSasl {
  /** The only mechanism these transports use. */
  public static final String GSSAPI = "GSSAPI";

  private LibthriftSasl() {}

  /** Logs in from the configuration's principal ({@code _HOST} expanded) and keytab. */
  public static Subject login(SecurityConfig config) {
    String principal = principal(config).withHostExpanded().toString();
    try {
      return KerberosLogin.login(new KerberosIdentity(principal,
          config.sasl().kerberosKeytab().orElseThrow(() -> missing(ConfigProperty.SASL_KERBEROS_KEYTAB))));
    } catch (LoginException e) {
      throw new IllegalStateException("cannot log in as " + principal + " from its keytab: " + e.getMessage(), e);
    }
  }

  private static KerberosName principal(SecurityConfig config) {
    return KerberosName.parse(config.sasl().kerberosPrincipal()
        .orElseThrow(() -> missing(ConfigProperty.SASL_KERBEROS_PRINCIPAL)));
  }

  private static ConfigException missing(ConfigProperty property) {
    return new ConfigException(property.key(), "empty; libthrift's SASL transports log in from a keytab");
  }

  /** The SASL properties Accumulo passes to libthrift's transports: the QOP list, most preferred first. */
  public static Map<String, String> properties(SecurityConfig config) {
    return Map.of(Sasl.QOP, config.sasl().qop().stream().map(QualityOfProtection::token)
        .collect(Collectors.joining(",")));
  }

  /**
   * libthrift's {@code TSaslServerTransport.Factory} for the configuration's service principal
   * ({@code primary/host}), each connection's handshake run as the service's login.
   */
  public static TTransportFactory serverTransports(SecurityConfig config) {
    KerberosName principal = principal(config).withHostExpanded();
    String host = principal.instance().orElseThrow(() -> new ConfigException(
        ConfigProperty.SASL_KERBEROS_PRINCIPAL.key(), "'" + principal + "' names no host; a GSSAPI service's"
        + " principal is primary/host@REALM"));
    Subject service = login(config);
    TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
    sasl.addServerDefinition(GSSAPI, principal.primary(), host, properties(config), null);
    return new TTransportFactory() {
      @Override
      public TTransport getTransport(TTransport accepted) throws TTransportException {
        return as(service, () -> sasl.getTransport(accepted));
      }
    };
  }

  /** Runs {@code action} as {@code subject}, its transport failures thrown as they are. */
  public static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws TTransportException {
    try {
      return Subject.doAs(subject, action);
    } catch (PrivilegedActionException e) {
      throw e.getException() instanceof TTransportException ? (TTransportException) e.getException()
          : new TTransportException(e.getException());
    }
  }
}
