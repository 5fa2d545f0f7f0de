package io.securethrift.core.testing;

import java.security.PrivilegedExceptionAction;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The child JVM of {@link JdkGssapiInChildJvm}: it holds the JDK's GSSAPI SASL clients and servers and answers one
 * command per call on them. Commands carry the session id the {@code CLIENT} or {@code SERVER} command answered; every
 * call runs as a {@code Subject} made of the credentials that command sent. A call the mechanism refuses answers
 * {@value #FAILED} with the exception's type and message, which the parent throws again.
 */
public final class JdkGssapiHost {
  static final String CLIENT = "CLIENT";
  static final String SERVER = "SERVER";
  static final String STEP = "STEP";
  static final String WRAP = "WRAP";
  static final String UNWRAP = "UNWRAP";
  static final String PROPERTY = "PROPERTY";
  static final String IDS = "IDS";
  static final String DISPOSE = "DISPOSE";
  static final String FAILED = "FAILED";

  /** One client or server and the Subject its calls run as. */
  private static final class Session {
    final Subject subject;
    final SaslClient client;
    final SaslServer server;
    /** The server's authentication and authorization ids, from the JDK's AuthorizeCallback. */
    final String[] ids;

    Session(Subject subject, SaslClient client, SaslServer server, String[] ids) {
      this.subject = subject;
      this.client = client;
      this.server = server;
      this.ids = ids;
    }
  }

  private final Map<Integer, Session> sessions = new HashMap<>();
  private int nextId;

  private JdkGssapiHost() {}

  public static void main(String[] args) throws Exception {
    JdkGssapiHost host = new JdkGssapiHost();
    ChildJvm.serve(host::answer);
  }

  static byte[] decode(String text) {
    return Base64.getDecoder().decode(text);
  }

  private LineRecord answer(LineRecord command) throws Exception {
    try {
      return handle(command);
    } catch (java.security.PrivilegedActionException e) {
      return failed(e.getException());
    } catch (SaslException | IllegalStateException e) {
      return failed(e);
    }
  }

  private static LineRecord failed(Exception e) {
    return LineRecord.of(FAILED).with("type", e.getClass().getName()).with("message", String.valueOf(e.getMessage()));
  }

  private LineRecord handle(LineRecord command) throws Exception {
    switch (command.kind()) {
      case CLIENT:
        return open(command, ticketSubject(command), null);
      case SERVER:
        return open(command, keySubject(command), new String[2]);
      default:
        break;
    }
    int id = command.getInt("id");
    Session session = command.kind().equals(DISPOSE) ? sessions.remove(id) : sessions.get(id);
    if (session == null && command.kind().equals(DISPOSE)) {
      return LineRecord.of("OK"); // disposed of before: the JDK's dispose may be called again
    }
    if (session == null) {
      throw new IllegalArgumentException("no session " + id);
    }
    switch (command.kind()) {
      case STEP: {
        byte[] token = decode(command.get("bytes"));
        byte[] reply = as(session, () -> session.client != null ? session.client.evaluateChallenge(token)
            : session.server.evaluateResponse(token));
        boolean complete = session.client != null ? session.client.isComplete() : session.server.isComplete();
        return withBytes(LineRecord.of("OK").with("complete", complete), reply);
      }
      case WRAP: {
        byte[] bytes = decode(command.get("bytes"));
        return withBytes(LineRecord.of("OK"), as(session, () -> session.client != null
            ? session.client.wrap(bytes, 0, bytes.length) : session.server.wrap(bytes, 0, bytes.length)));
      }
      case UNWRAP: {
        byte[] bytes = decode(command.get("bytes"));
        return withBytes(LineRecord.of("OK"), as(session, () -> session.client != null
            ? session.client.unwrap(bytes, 0, bytes.length) : session.server.unwrap(bytes, 0, bytes.length)));
      }
      case PROPERTY: {
        Object value = session.client != null ? session.client.getNegotiatedProperty(command.get("name"))
            : session.server.getNegotiatedProperty(command.get("name"));
        LineRecord answer = LineRecord.of("OK");
        return value == null ? answer : answer.with("value", value);
      }
      case IDS:
        return LineRecord.of("OK").with("authenticationId", session.ids[0]).with("authorizationId", session.ids[1]);
      case DISPOSE:
        if (session.client != null) {
          session.client.dispose();
        } else {
          session.server.dispose();
        }
        return LineRecord.of("OK");
      default:
        throw new IllegalArgumentException("unknown command " + command.kind());
    }
  }

  private LineRecord open(LineRecord command, Subject subject, String[] ids) throws Exception {
    Map<String, String> props = new HashMap<>();
    command.fields().forEach((key, value) -> {
      if (key.startsWith("p.")) {
        props.put(key.substring(2), value);
      }
    });
    Map<String, String> fields = command.fields();
    Session session;
    if (ids == null) {
      SaslClient client = Subject.doAs(subject, (PrivilegedExceptionAction<SaslClient>) () -> Sasl.createSaslClient(
          new String[] {"GSSAPI"}, fields.get("authorizationId"), command.get("protocol"),
          command.get("serverName"), props, null));
      session = new Session(subject, client, null, null);
    } else {
      SaslServer server = Subject.doAs(subject, (PrivilegedExceptionAction<SaslServer>) () -> Sasl.createSaslServer(
          "GSSAPI", command.get("protocol"), fields.get("serverName"), props, callbacks -> authorize(callbacks,
              ids)));
      session = new Session(subject, null, server, ids);
    }
    int id = nextId++;
    sessions.put(id, session);
    return LineRecord.of("OK").with("id", id);
  }

  private static void authorize(Callback[] callbacks, String[] ids) throws UnsupportedCallbackException {
    for (Callback callback : callbacks) {
      if (!(callback instanceof AuthorizeCallback)) {
        throw new UnsupportedCallbackException(callback);
      }
      AuthorizeCallback authorize = (AuthorizeCallback) callback;
      ids[0] = authorize.getAuthenticationID();
      ids[1] = authorize.getAuthorizationID();
      authorize.setAuthorized(true); // the parent asks its own handler when the server completes
    }
  }

  private static <T> T as(Session session, PrivilegedExceptionAction<T> action) throws Exception {
    return Subject.doAs(session.subject, action);
  }

  private static LineRecord withBytes(LineRecord answer, byte[] bytes) {
    return bytes == null ? answer : answer.with("bytes", Base64.getEncoder().encodeToString(bytes));
  }

  private static Subject ticketSubject(LineRecord command) {
    String flagText = command.get("flags");
    boolean[] flags = new boolean[flagText.length()];
    for (int i = 0; i < flags.length; i++) {
      flags[i] = flagText.charAt(i) == '1';
    }
    KerberosPrincipal client = new KerberosPrincipal(command.get("client"));
    KerberosTicket tgt = new KerberosTicket(decode(command.get("ticket")), client,
        new KerberosPrincipal(command.get("server")), decode(command.get("sessionKey")), command.getInt("keyType"),
        flags, date(command, "auth"), date(command, "start"), date(command, "end"), date(command, "renewTill"), null);
    Subject subject = new Subject();
    subject.getPrincipals().add(client);
    subject.getPrivateCredentials().add(tgt);
    return subject;
  }

  private static Date date(LineRecord command, String key) {
    long time = command.getLong(key);
    return time < 0 ? null : new Date(time);
  }

  private static Subject keySubject(LineRecord command) {
    Subject subject = new Subject();
    for (String key : command.getList("keys")) {
      String[] parts = key.split(":", 4);
      KerberosPrincipal principal = new KerberosPrincipal(parts[0]);
      subject.getPrincipals().add(principal);
      subject.getPrivateCredentials().add(new KerberosKey(principal, decode(parts[3]), Integer.parseInt(parts[1]),
          Integer.parseInt(parts[2])));
    }
    return subject;
  }
}
