import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TFramedTransport;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;

/**
 * An Accumulo 1.7-era Thrift peer: libthrift 0.9.1 in a JVM of its own, run with the JDK's single-file source launcher
 * on a class path holding only libthrift 0.9.1 and slf4j-api (0.9.1 and the libthrift securethrift is built with
 * cannot share a class path). io.securethrift.core.testing.LegacyThriftPeer starts it; it is a resource of
 * core's test jar, never compiled by the build.
 *
 * <pre>
 * server PRINCIPAL KEYTAB QOPS                  SASL GSSAPI echo server (TSaslServerTransport): prints "PORT n",
 *                                               then echoes length-prefixed messages on every connection until killed
 * client PRINCIPAL KEYTAB PORT QOP...           SASL GSSAPI echo client (TSaslClientTransport), one connection per
 *                                               QOP: sends 1 B and 200 KB, prints "OK qop"
 * call framed PORT                              EchoService calls over TFramedTransport on a plain TSocket
 * call tls PORT TRUSTSTORE KEYSTORE PASSWORD    EchoService calls over TFramedTransport on the TLSv1.2 socket of
 *                                               TSSLTransportFactory.getClientSocket (PKCS12 stores; KEYSTORE "-" for
 *                                               no client certificate)
 * call sasl PORT PRINCIPAL KEYTAB QOP...        EchoService calls over TSaslClientTransport (GSSAPI) on a TSocket,
 *                                               one connection per QOP
 * </pre>
 *
 * <p>The SASL peers log in from the keytab and talk to the service accumulo/localhost; the peers connect to localhost.
 * On each connection the call mode makes the calls of core's echo.thrift by hand with 0.9.1's TProtocol API
 * (TCompactProtocol; there is no generated code for 0.9.1): echo of 1 B and of 200 KB, compared with what was sent;
 * whoAmI, printed as "WHO text"; fail("x"), which must come back as the declared EchoFailure. Then it prints
 * "OK framed", "OK tls" or "OK qop". Accumulo 1.7 wraps TLS sockets in TFramedTransport but not SASL transports, and
 * asks for the TLS version it is configured with: JDK 17 refuses its default, TLSv1.
 *
 * <p>Any failure prints "FAILED" and the exception's chain of causes on one line, the stack trace on standard error,
 * and exits with status 1. A failed TLS handshake is an SSLHandshakeException "TLS handshake with ... failed" whatever
 * the cause: the tls mode completes the handshake before its first call.
 */
public final class LegacyPeer {
  private static final PrintStream OUT = System.out;
  private static final String HOST = "localhost";
  private static final int LARGE = 200 * 1024;

  public static void main(String[] args) throws Exception {
    try {
      switch (args[0]) {
        case "server":
          serve(login(args[1], args[2]), args[3]);
          break;
        case "client":
          echoClient(login(args[1], args[2]), Integer.parseInt(args[3]), rest(args, 4));
          break;
        case "call":
          call(args[1], Integer.parseInt(args[2]), rest(args, 3));
          break;
        default:
          throw new IllegalArgumentException("unknown command " + args[0] + " (see LegacyPeer's javadoc)");
      }
    } catch (Exception e) {
      StringBuilder chain = new StringBuilder("FAILED");
      for (Throwable t = e; t != null; t = t.getCause()) {
        chain.append(t == e ? " " : " <- ").append(t.getClass().getName()).append(": ").append(t.getMessage());
      }
      OUT.println(chain);
      OUT.flush();
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static List<String> rest(String[] args, int from) {
    return Arrays.asList(Arrays.copyOfRange(args, from, args.length));
  }

  private static void println(String line) {
    OUT.println(line);
    OUT.flush();
  }

  // ---- The SASL echo peers: length-prefixed messages at the transport level.

  private static void echoClient(Subject subject, int port, List<String> qops) throws Exception {
    for (String qop : qops) {
      TTransport t = saslClient(subject, port, qop);
      for (int size : new int[] {1, LARGE}) {
        byte[] sent = randomBytes(size);
        writeMessage(t, sent);
        byte[] got = readMessage(t);
        if (!Arrays.equals(sent, got)) {
          throw new IllegalStateException("echo of " + size + " bytes differs");
        }
      }
      t.close();
      println("OK " + qop);
    }
  }

  private static void serve(Subject subject, String qops) throws Exception {
    CallbackHandler authorize = callbacks -> {
      for (Callback c : callbacks) {
        if (c instanceof AuthorizeCallback) {
          AuthorizeCallback a = (AuthorizeCallback) c;
          a.setAuthorized(a.getAuthenticationID().equals(a.getAuthorizationID()));
        }
      }
    };
    try (ServerSocket listening = new ServerSocket(0, 16, InetAddress.getByName(HOST))) {
      println("PORT " + listening.getLocalPort());
      while (true) {
        Socket socket = listening.accept();
        TTransport t = new TSaslServerTransport("GSSAPI", "accumulo", HOST, Map.of(Sasl.QOP, qops), authorize,
            new TSocket(socket));
        try {
          as(subject, () -> {
            t.open();
            return null;
          });
          while (true) {
            writeMessage(t, readMessage(t));
          }
        } catch (Exception e) {
          t.close();
        }
      }
    }
  }

  static byte[] readMessage(TTransport t) throws Exception {
    byte[] header = new byte[4];
    t.readAll(header, 0, 4);
    int length = ((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8)
        | (header[3] & 0xff);
    byte[] payload = new byte[length];
    t.readAll(payload, 0, length);
    return payload;
  }

  static void writeMessage(TTransport t, byte[] payload) throws Exception {
    int n = payload.length;
    t.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    t.write(payload);
    t.flush();
  }

  // ---- The call mode: EchoService over the transports Accumulo 1.7 clients use.

  private static void call(String transport, int port, List<String> options) throws Exception {
    switch (transport) {
      case "framed": {
        TTransport t = new TFramedTransport(new TSocket(HOST, port));
        t.open();
        exercise(t, "framed");
        break;
      }
      case "tls": {
        TSSLTransportFactory.TSSLTransportParameters params =
            new TSSLTransportFactory.TSSLTransportParameters("TLSv1.2", null);
        String password = options.get(2);
        params.setTrustStore(options.get(0), password, null, "PKCS12");
        if (!options.get(1).equals("-")) {
          params.setKeyStore(options.get(1), password, null, "PKCS12");
        }
        TSocket socket = TSSLTransportFactory.getClientSocket(HOST, port, 30_000, params);
        // The first call would start the handshake; started here, a failure is known to be the handshake's, whether
        // the server's alert arrives or only a closed connection (the client may still be writing its flight).
        try {
          ((SSLSocket) socket.getSocket()).startHandshake();
        } catch (IOException e) {
          socket.close();
          throw (SSLHandshakeException) new SSLHandshakeException("TLS handshake with " + HOST + ":" + port
              + " failed").initCause(e);
        }
        exercise(new TFramedTransport(socket), "tls");
        break;
      }
      case "sasl": {
        Subject subject = login(options.get(0), options.get(1));
        for (String qop : options.subList(2, options.size())) {
          exercise(saslClient(subject, port, qop), qop);
        }
        break;
      }
      default:
        throw new IllegalArgumentException("unknown transport " + transport + " (framed, tls or sasl)");
    }
  }

  /** The calls of one connection: two echoes, whoAmI and the declared failure; prints "WHO ..." and "OK what". */
  private static void exercise(TTransport t, String what) throws Exception {
    try {
      TProtocol p = new TCompactProtocol(t);
      int seqid = 0;
      for (int size : new int[] {1, LARGE}) {
        byte[] sent = randomBytes(size);
        Result echoed = call(p, "echo", ++seqid, sent);
        if (!Arrays.equals(sent, echoed.success)) {
          throw new IllegalStateException("echo of " + size + " bytes came back as "
              + (echoed.success == null ? "no result" : echoed.success.length + " different bytes"));
        }
      }
      Result who = call(p, "whoAmI", ++seqid, null);
      if (who.success == null) {
        throw new IllegalStateException("whoAmI returned no result");
      }
      println("WHO " + new String(who.success, StandardCharsets.UTF_8));
      Result failed = call(p, "fail", ++seqid, "x".getBytes(StandardCharsets.UTF_8));
      if (!"x".equals(failed.failure)) {
        throw new IllegalStateException("fail(\"x\") did not come back as EchoFailure(x) but as "
            + (failed.failure == null ? "a normal return" : "EchoFailure(" + failed.failure + ")"));
      }
    } finally {
      t.close();
    }
    println("OK " + what);
  }

  /** What a call returned: the success value (result field 0) or the declared EchoFailure's message (field 1). */
  private static final class Result {
    byte[] success;
    String failure;
  }

  /**
   * One call: the method's arguments are one binary or string field 1 ({@code argument}), or none when it is null.
   * An EXCEPTION reply is thrown as the TApplicationException it carries.
   */
  private static Result call(TProtocol p, String method, int seqid, byte[] argument) throws TException {
    p.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqid));
    p.writeStructBegin(new TStruct(method + "_args"));
    if (argument != null) {
      p.writeFieldBegin(new TField("arg", TType.STRING, (short) 1));
      p.writeBinary(ByteBuffer.wrap(argument));
      p.writeFieldEnd();
    }
    p.writeFieldStop();
    p.writeStructEnd();
    p.writeMessageEnd();
    p.getTransport().flush();

    TMessage reply = p.readMessageBegin();
    if (reply.type == TMessageType.EXCEPTION) {
      TApplicationException e = TApplicationException.read(p);
      p.readMessageEnd();
      throw e;
    }
    if (reply.type != TMessageType.REPLY || reply.seqid != seqid || !reply.name.equals(method)) {
      throw new IllegalStateException("expected the REPLY to " + method + " seqid " + seqid + ", got " + reply);
    }
    Result result = new Result();
    p.readStructBegin();
    for (TField field = p.readFieldBegin(); field.type != TType.STOP; field = p.readFieldBegin()) {
      if (field.id == 0 && field.type == TType.STRING) {
        result.success = bytes(p.readBinary());
      } else if (field.id == 1 && field.type == TType.STRUCT) {
        result.failure = readFailureMessage(p);
      } else {
        TProtocolUtil.skip(p, field.type);
      }
      p.readFieldEnd();
    }
    p.readStructEnd();
    p.readMessageEnd();
    return result;
  }

  /** EchoFailure: its field 1, the message. */
  private static String readFailureMessage(TProtocol p) throws TException {
    String message = "";
    p.readStructBegin();
    for (TField field = p.readFieldBegin(); field.type != TType.STOP; field = p.readFieldBegin()) {
      if (field.id == 1 && field.type == TType.STRING) {
        message = p.readString();
      } else {
        TProtocolUtil.skip(p, field.type);
      }
      p.readFieldEnd();
    }
    p.readStructEnd();
    return message;
  }

  /** A copy: 0.9.1's readBinary may return a view of the transport's buffer, which the next read reuses. */
  private static byte[] bytes(ByteBuffer buffer) {
    byte[] copy = new byte[buffer.remaining()];
    buffer.duplicate().get(copy);
    return copy;
  }

  // ---- Shared.

  private static byte[] randomBytes(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }

  /** Accumulo 1.7's SASL client transport: GSSAPI to accumulo/localhost at one QOP, opened as {@code subject}. */
  private static TTransport saslClient(Subject subject, int port, String qop) throws Exception {
    TTransport t = new TSaslClientTransport("GSSAPI", null, "accumulo", HOST, Map.of(Sasl.QOP, qop), null,
        new TSocket(HOST, port));
    as(subject, () -> {
      t.open();
      return null;
    });
    return t;
  }

  static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws Exception {
    try {
      return Subject.doAs(subject, action);
    } catch (java.security.PrivilegedActionException e) {
      throw e.getException();
    }
  }

  static Subject login(String principal, String keytab) throws Exception {
    Configuration config = new Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {new AppConfigurationEntry(
            "com.sun.security.auth.module.Krb5LoginModule", AppConfigurationEntry.LoginModuleControlFlag.REQUIRED,
            Map.of("useKeyTab", "true", "keyTab", keytab, "principal", principal, "storeKey", "true",
                "doNotPrompt", "true", "refreshKrb5Config", "true", "isInitiator", "true"))};
      }
    };
    LoginContext context = new LoginContext("legacy", new Subject(), null, config);
    context.login();
    return context.getSubject();
  }
}
