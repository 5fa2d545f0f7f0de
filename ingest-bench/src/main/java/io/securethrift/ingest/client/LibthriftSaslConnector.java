package io.securethrift.ingest.client;

import io.securethrift.core.SecurityConfig;
import io.securethrift.ingest.LibthriftSasl;
import javax.security.auth.Subject;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * libthrift's own {@code TSaslClientTransport} over a {@code TSocket}, GSSAPI found through {@code Sasl} as Accumulo's
 * client finds it: whatever security provider the JVM was started with answers (the JDK's mechanism, or
 * {@code SecureThriftSaslProvider} from a security file). Only the Kerberos login, the service's primary, the QOP
 * and the read timeout are taken from the configuration; everything else is libthrift's.
 */
public final class LibthriftSaslConnector implements Connector {
  private final SecurityConfig config;
  private final Subject login;

  /** Logs in from the configuration's keytab. */
  public LibthriftSaslConnector(SecurityConfig config) {
    this.config = config;
    this.login = LibthriftSasl.login(config);
  }

  @Override
  public TProtocol open(String host, int port) throws TTransportException {
    TSocket socket = new TSocket(host, port, (int) config.timeouts().read().toMillis());
    TSaslClientTransport transport = LibthriftSasl.as(login, () -> new TSaslClientTransport(LibthriftSasl.GSSAPI,
        null, config.sasl().serverPrimary(), host, LibthriftSasl.properties(config), null, socket));
    LibthriftSasl.as(login, () -> {
      transport.open();
      return null;
    });
    return new TCompactProtocol(transport);
  }

  @Override
  public void close() {
    // Connections are closed by their users; the login holds nothing to release.
  }
}
