import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;

/**
 * An Accumulo 1.7-era SASL peer: libthrift 0.9.1's TSaslServerTransport or TSaslClientTransport with GSSAPI, run
 * with the JDK's single-file source launcher on a class path holding only libthrift 0.9.1 and slf4j. It echoes
 * length-prefixed byte messages at the transport level, so no generated code is needed.
 *
 * <pre>
 * server PRINCIPAL KEYTAB QOPS              prints "PORT n", echoes every connection until killed
 * client PRINCIPAL KEYTAB PORT QOP...       one connection per QOP, sends 1 B and 200 KB, prints "OK qop"
 * </pre>
 */
public final class LegacyPeer {
  private static final PrintStream OUT = System.out;

  public static void main(String[] args) throws Exception {
    Subject subject = login(args[1], args[2]);
    if (args[0].equals("server")) {
      serve(subject, args[3]);
    } else {
      int port = Integer.parseInt(args[3]);
      for (String qop : Arrays.copyOfRange(args, 4, args.length)) {
        TTransport t = new TSaslClientTransport("GSSAPI", null, "accumulo", "localhost", Map.of(Sasl.QOP, qop),
            null, new TSocket("localhost", port));
        as(subject, () -> {
          t.open();
          return null;
        });
        for (int size : new int[] {1, 200 * 1024}) {
          byte[] sent = new byte[size];
          new Random(size).nextBytes(sent);
          writeMessage(t, sent);
          byte[] got = readMessage(t);
          if (!Arrays.equals(sent, got)) {
            throw new IllegalStateException("echo of " + size + " bytes differs");
          }
        }
        t.close();
        OUT.println("OK " + qop);
        OUT.flush();
      }
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
    try (ServerSocket listening = new ServerSocket(0, 16, InetAddress.getByName("localhost"))) {
      OUT.println("PORT " + listening.getLocalPort());
      OUT.flush();
      while (true) {
        Socket socket = listening.accept();
        TTransport t = new TSaslServerTransport("GSSAPI", "accumulo", "localhost", Map.of(Sasl.QOP, qops), authorize,
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
