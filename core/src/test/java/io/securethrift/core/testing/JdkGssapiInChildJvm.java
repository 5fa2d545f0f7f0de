package io.securethrift.core.testing;

import io.securethrift.core.internal.CallerSubject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.kerberos.KeyTab;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;

/**
 * A security provider whose GSSAPI SASL client and server are the JDK's own, running in a child JVM ({@link
 * JdkGssapiHost}) on a JDK that has them, for tests on runtimes that lack them (see {@link GssapiSasl}). Each call on
 * a client or server it makes is one command to the child, so the tokens and wrapped messages are the JDK's.
 *
 * <p>The JDK's mechanism takes its Kerberos credentials from the caller's {@code Subject}; so does this one, when the
 * client or server is made, and sends them to the child: a client's ticket-granting ticket, a server's keys. The child
 * JVM is shared by every connection and restarted when {@code java.security.krb5.conf} names another KDC's file. A
 * server's authorization check, which the JDK makes with the caller's {@code AuthorizeCallback}, runs here, with the
 * caller's handler, when the child's server completes.
 */
public final class JdkGssapiInChildJvm extends Provider {
  public static final String NAME = "JdkGssapiInChildJvm";
  private static final long serialVersionUID = 1L;
  private static final String KRB5_CONF = "java.security.krb5.conf";
  private static ChildJvm child;
  private static String childKrb5Conf;

  public JdkGssapiInChildJvm() {
    super(NAME, "1.0", "the JDK's GSSAPI SASL mechanism in a child JVM, for tests on runtimes without it");
    putService(new Service(this, "SaslClientFactory", "GSSAPI", ClientFactory.class.getName(), null, null) {
      @Override
      public Object newInstance(Object parameter) {
        return new ClientFactory();
      }
    });
    putService(new Service(this, "SaslServerFactory", "GSSAPI", ServerFactory.class.getName(), null, null) {
      @Override
      public Object newInstance(Object parameter) {
        return new ServerFactory();
      }
    });
  }

  /** Sends one command to the child (started, or restarted for another krb5.conf, as needed) and returns its answer. */
  private static synchronized LineRecord call(LineRecord command) throws SaslException {
    String krb5Conf = System.getProperty(KRB5_CONF, "");
    if (child == null || !krb5Conf.equals(childKrb5Conf)) {
      if (child != null) {
        child.close();
      }
      ChildJvm.Builder builder = ChildJvm.builder(JdkGssapiHost.class).name("the JDK's GSSAPI in a child JVM")
          .javaHome(GssapiSasl.javaHome()).talk();
      if (!krb5Conf.isEmpty()) {
        builder.krb5Conf(Path.of(krb5Conf));
      }
      child = builder.start();
      childKrb5Conf = krb5Conf;
    }
    LineRecord answer;
    try {
      answer = child.call(command);
    } catch (IOException e) {
      child.close();
      child = null;
      throw new UncheckedIOException(e);
    }
    if (answer.kind().equals(JdkGssapiHost.FAILED)) {
      if (answer.get("type").equals(IllegalStateException.class.getName())) {
        throw new IllegalStateException(answer.get("message"));
      }
      throw new SaslException(answer.get("message"));
    }
    return answer;
  }

  private static LineRecord session(String kind, int id) {
    return LineRecord.of(kind).with("id", id);
  }

  private static String encode(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static byte[] bytes(LineRecord answer) {
    return answer.fields().containsKey("bytes") ? JdkGssapiHost.decode(answer.get("bytes")) : null;
  }

  /** The props as text, as the child passes them to the JDK's factory. */
  private static LineRecord withProps(LineRecord command, Map<String, ?> props) {
    if (props != null) {
      props.forEach((key, value) -> command.with("p." + key, String.valueOf(value)));
    }
    return command;
  }

  private static Subject requireSubject(String role) throws SaslException {
    Subject subject = CallerSubject.current();
    if (subject == null) {
      throw new SaslException("the JDK's GSSAPI " + role + " takes its Kerberos credentials from the caller's Subject,"
          + " and there is none");
    }
    return subject;
  }

  /** A client's ticket-granting ticket, as the fields of {@link KerberosTicket}'s constructor. */
  private static LineRecord withTicket(LineRecord command, Subject subject) throws SaslException {
    KerberosTicket tgt = subject.getPrivateCredentials(KerberosTicket.class).stream()
        .filter(t -> t.getServer().getName().startsWith("krbtgt/")).findFirst()
        .orElseThrow(() -> new SaslException("the caller's Subject holds no ticket-granting ticket"));
    boolean[] flags = tgt.getFlags();
    StringBuilder flagText = new StringBuilder();
    for (boolean flag : flags) {
      flagText.append(flag ? '1' : '0');
    }
    return command.with("ticket", encode(tgt.getEncoded())).with("client", tgt.getClient().getName())
        .with("server", tgt.getServer().getName()).with("sessionKey", encode(tgt.getSessionKey().getEncoded()))
        .with("keyType", tgt.getSessionKeyType()).with("flags", flagText)
        .with("auth", time(tgt.getAuthTime())).with("start", time(tgt.getStartTime()))
        .with("end", time(tgt.getEndTime())).with("renewTill", time(tgt.getRenewTill()));
  }

  private static long time(Date date) {
    return date == null ? -1 : date.getTime();
  }

  /** A server's long-term keys, from the keytabs and keys in its Subject, as {@code principal:type:version:key}. */
  private static LineRecord withKeys(LineRecord command, Subject subject) throws SaslException {
    Set<KerberosPrincipal> principals = subject.getPrincipals(KerberosPrincipal.class);
    List<String> keys = new ArrayList<>();
    for (KerberosKey key : subject.getPrivateCredentials(KerberosKey.class)) {
      keys.add(key(key));
    }
    for (KeyTab keyTab : subject.getPrivateCredentials(KeyTab.class)) {
      for (KerberosPrincipal principal : principals) {
        for (KerberosKey key : keyTab.getKeys(principal)) {
          keys.add(key(key));
        }
      }
    }
    if (keys.isEmpty()) {
      throw new SaslException("the caller's Subject holds no Kerberos keys for " + principals);
    }
    return command.with("keys", keys.stream().distinct().collect(Collectors.toList()));
  }

  private static String key(KerberosKey key) {
    return key.getPrincipal().getName() + ":" + key.getKeyType() + ":" + key.getVersionNumber() + ":"
        + encode(key.getEncoded());
  }

  public static final class ClientFactory implements SaslClientFactory {
    @Override
    public SaslClient createSaslClient(String[] mechanisms, String authorizationId, String protocol,
        String serverName, Map<String, ?> props, CallbackHandler handler) throws SaslException {
      if (!List.of(mechanisms).contains("GSSAPI")) {
        return null;
      }
      LineRecord command = LineRecord.of(JdkGssapiHost.CLIENT).with("protocol", protocol)
          .with("serverName", serverName);
      if (authorizationId != null) {
        command.with("authorizationId", authorizationId);
      }
      return new RemoteClient(withProps(command, props));
    }

    @Override
    public String[] getMechanismNames(Map<String, ?> props) {
      return new String[] {"GSSAPI"};
    }
  }

  public static final class ServerFactory implements SaslServerFactory {
    @Override
    public SaslServer createSaslServer(String mechanism, String protocol, String serverName, Map<String, ?> props,
        CallbackHandler handler) throws SaslException {
      if (!"GSSAPI".equals(mechanism)) {
        return null;
      }
      if (handler == null) {
        throw new SaslException("the JDK's GSSAPI server needs a CallbackHandler for its AuthorizeCallback");
      }
      LineRecord command = withKeys(LineRecord.of(JdkGssapiHost.SERVER), requireSubject("server"))
          .with("protocol", protocol);
      if (serverName != null) {
        command.with("serverName", serverName);
      }
      RemoteServer server = new RemoteServer(handler);
      server.opened(call(withProps(command, props)));
      return server;
    }

    @Override
    public String[] getMechanismNames(Map<String, ?> props) {
      return new String[] {"GSSAPI"};
    }
  }

  /** What the client and server in the child have in common: wrapping, properties, disposal. */
  private abstract static class Remote {
    int id;
    /** The child this session lives in; a session outlives a restarted child only to be disposed of. */
    ChildJvm host;
    boolean complete;

    void opened(LineRecord answer) {
      id = Integer.parseInt(answer.get("id"));
      synchronized (JdkGssapiInChildJvm.class) {
        host = child;
      }
    }

    public String getMechanismName() {
      return "GSSAPI";
    }

    public boolean isComplete() {
      return complete;
    }

    byte[] step(byte[] token) throws SaslException {
      LineRecord answer = call(session(JdkGssapiHost.STEP, id).with("bytes", encode(token)));
      complete = Boolean.parseBoolean(answer.get("complete"));
      return bytes(answer);
    }

    public byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
      return bytes(call(session(JdkGssapiHost.UNWRAP, id).with("bytes",
          encode(Arrays.copyOfRange(incoming, offset, offset + len)))));
    }

    public byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
      return bytes(call(session(JdkGssapiHost.WRAP, id).with("bytes",
          encode(Arrays.copyOfRange(outgoing, offset, offset + len)))));
    }

    public Object getNegotiatedProperty(String name) {
      try {
        LineRecord answer = call(session(JdkGssapiHost.PROPERTY, id).with("name", name));
        return answer.fields().containsKey("value") ? answer.get("value") : null;
      } catch (SaslException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }

    public void dispose() throws SaslException {
      synchronized (JdkGssapiInChildJvm.class) {
        if (host != child) {
          return; // its child is gone, and the session with it
        }
      }
      call(session(JdkGssapiHost.DISPOSE, id));
    }
  }

  /**
   * The JDK's client needs its credentials only for its first step, which libthrift takes inside the caller's {@code
   * doAs} while it makes the client outside; so the child's client is made at the first step.
   */
  private static final class RemoteClient extends Remote implements SaslClient {
    private LineRecord command;

    RemoteClient(LineRecord command) {
      this.command = command;
    }

    @Override
    public boolean hasInitialResponse() {
      return true; // as the JDK's GSSAPI client: the first Kerberos token goes with the mechanism name
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
      if (command != null) {
        opened(call(withTicket(command, requireSubject("client"))));
        command = null;
      }
      return step(challenge);
    }
  }

  private static final class RemoteServer extends Remote implements SaslServer {
    private final CallbackHandler handler;
    private String authorizationId;

    RemoteServer(CallbackHandler handler) {
      this.handler = handler;
    }

    /** The child authorizes every peer; the caller's handler decides here, as the JDK's server asks it to. */
    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
      byte[] reply = step(response);
      if (complete) {
        LineRecord ids = call(session(JdkGssapiHost.IDS, id));
        AuthorizeCallback authorize = new AuthorizeCallback(ids.get("authenticationId"), ids.get("authorizationId"));
        try {
          handler.handle(new Callback[] {authorize});
        } catch (IOException | UnsupportedCallbackException e) {
          throw new SaslException("the authorization callback failed", e);
        }
        if (!authorize.isAuthorized()) {
          complete = false;
          throw new SaslException(authorize.getAuthenticationID() + " is not authorized to connect as "
              + authorize.getAuthorizationID());
        }
        authorizationId = authorize.getAuthorizedID() != null ? authorize.getAuthorizedID()
            : authorize.getAuthorizationID();
      }
      return reply;
    }

    @Override
    public String getAuthorizationID() {
      if (!complete) {
        throw new IllegalStateException("GSSAPI authentication not completed");
      }
      return authorizationId;
    }
  }
}
