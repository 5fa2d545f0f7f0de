package io.securethrift.accumulo.otherjvm;

import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * Three calls of Accumulo's {@code ClientService} written by hand with the TProtocol API over a securethrift
 * transport, for the Accumulo lines whose generated stubs cannot share this JVM (1.7's need libthrift 0.9.1, 3.0's
 * clash with the 2.1 classes). The calls are unchanged from 1.7's {@code client.thrift} to 3.0's:
 * {@code getInstanceId()} returns field 0; {@code authenticate(1: TInfo, 2: TCredentials)} returns bool field 0 and
 * {@code listLocalUsers(2: TInfo, 3: TCredentials)} a set of strings, or either throws
 * {@code ThriftSecurityException} (1: user, 2: code) as field 1; {@code TCredentials} is 1: principal,
 * 2: tokenClassName, 3: token, 4: instanceId. {@code TInfo} (1.7: trace ids, 3.0: trace headers) is sent empty, which
 * both read as "not traced". 1.7 speaks TCompactProtocol alone; 2.x and 3.0 multiplex it under the service name
 * {@code client}.
 */
final class ClientServiceCalls implements AutoCloseable {
  static final String PASSWORD_TOKEN = "org.apache.accumulo.core.client.security.tokens.PasswordToken";
  static final String KERBEROS_TOKEN = "org.apache.accumulo.core.client.security.tokens.KerberosToken";
  /** {@code SecurityErrorCode.BAD_CREDENTIALS}, the same number in 1.7 and 3.0. */
  static final int BAD_CREDENTIALS = 1;
  private static final String MULTIPLEXED_SERVICE = "client";

  private final SecuredTransport transport;
  private final TProtocol protocol;
  private int sequence;

  private ClientServiceCalls(SecuredTransport transport, TProtocol protocol) {
    this.transport = transport;
    this.protocol = protocol;
  }

  /**
   * Connects to a tablet server at {@code host:port}, as Accumulo lists its servers.
   *
   * @param multiplexed whether the server multiplexes its services (Accumulo 2.0 and later)
   */
  static ClientServiceCalls open(ClientTransportFactory factory, String hostAndPort, boolean multiplexed)
      throws TException {
    int colon = hostAndPort.lastIndexOf(':');
    SecuredTransport transport = factory.open(hostAndPort.substring(0, colon),
        Integer.parseInt(hostAndPort.substring(colon + 1)));
    TProtocol compact = new TCompactProtocol(transport);
    return new ClientServiceCalls(transport,
        multiplexed ? new TMultiplexedProtocol(compact, MULTIPLEXED_SERVICE) : compact);
  }

  SecuredTransport transport() {
    return transport;
  }

  /** Credentials as Accumulo sends them: the token is the serialized {@code AuthenticationToken}. */
  static final class Credentials {
    final String principal;
    final String tokenClassName;
    final byte[] token;
    final String instanceId;

    Credentials(String principal, String tokenClassName, byte[] token, String instanceId) {
      this.principal = principal;
      this.tokenClassName = tokenClassName;
      this.token = token.clone();
      this.instanceId = instanceId;
    }
  }

  /**
   * A {@code PasswordToken} serializes as Hadoop's compressed byte array, in 1.7 as in 3.0: length, then the gzip of
   * the password.
   */
  static Credentials password(String user, String password, String instanceId) throws IOException {
    ByteArrayOutputStream gzip = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gzip)) {
      out.write(password.getBytes(StandardCharsets.UTF_8));
    }
    ByteArrayOutputStream token = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(token)) {
      out.writeInt(gzip.size());
      gzip.writeTo(out);
    }
    return new Credentials(user, PASSWORD_TOKEN, token.toByteArray(), instanceId);
  }

  /** A {@code KerberosToken} serializes as its version number, 1; the identity comes from the SASL session. */
  static Credentials kerberos(String principal, String instanceId) {
    return new Credentials(principal, KERBEROS_TOKEN, new byte[] {0, 0, 0, 1}, instanceId);
  }

  /** A {@code ThriftSecurityException} from the server. */
  static final class SecurityException extends TException {
    private static final long serialVersionUID = 1L;
    private final int code;

    SecurityException(String user, int code) {
      super("ThriftSecurityException for " + user + ", code " + code);
      this.code = code;
    }

    /** The {@code SecurityErrorCode} number. */
    int code() {
      return code;
    }
  }

  String getInstanceId() throws TException {
    send("getInstanceId");
    protocol.writeStructBegin(new TStruct("getInstanceId_args"));
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    finish();
    return (String) receive("getInstanceId");
  }

  boolean authenticate(Credentials credentials) throws TException {
    sendWithCredentials("authenticate", 1, credentials);
    return (Boolean) receive("authenticate");
  }

  @SuppressWarnings("unchecked")
  Set<String> listLocalUsers(Credentials credentials) throws TException {
    sendWithCredentials("listLocalUsers", 2, credentials);
    return (Set<String>) receive("listLocalUsers");
  }

  @Override
  public void close() {
    transport.close();
  }

  /** A call whose arguments are an empty {@code TInfo} at {@code tinfoId} and the credentials right after it. */
  private void sendWithCredentials(String method, int tinfoId, Credentials credentials) throws TException {
    send(method);
    protocol.writeStructBegin(new TStruct(method + "_args"));
    protocol.writeFieldBegin(new TField("tinfo", TType.STRUCT, (short) tinfoId));
    protocol.writeStructBegin(new TStruct("TInfo"));
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeFieldEnd();
    protocol.writeFieldBegin(new TField("credentials", TType.STRUCT, (short) (tinfoId + 1)));
    protocol.writeStructBegin(new TStruct("TCredentials"));
    string(1, "principal", credentials.principal);
    string(2, "tokenClassName", credentials.tokenClassName);
    protocol.writeFieldBegin(new TField("token", TType.STRING, (short) 3));
    protocol.writeBinary(ByteBuffer.wrap(credentials.token));
    protocol.writeFieldEnd();
    string(4, "instanceId", credentials.instanceId);
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeFieldEnd();
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    finish();
  }

  private void string(int id, String name, String value) throws TException {
    protocol.writeFieldBegin(new TField(name, TType.STRING, (short) id));
    protocol.writeString(value);
    protocol.writeFieldEnd();
  }

  private void send(String method) throws TException {
    protocol.writeMessageBegin(new TMessage(method, TMessageType.CALL, ++sequence));
  }

  private void finish() throws TException {
    protocol.writeMessageEnd();
    protocol.getTransport().flush();
  }

  /** Reads a reply: field 0 is the return value, field 1 a {@code ThriftSecurityException}. */
  private Object receive(String method) throws TException {
    TMessage message = protocol.readMessageBegin();
    if (message.type == TMessageType.EXCEPTION) {
      TApplicationException e = TApplicationException.readFrom(protocol);
      protocol.readMessageEnd();
      throw e;
    }
    if (message.seqid != sequence || !message.name.equals(method)) {
      throw new TApplicationException(TApplicationException.BAD_SEQUENCE_ID, method + " got " + message.name);
    }
    Object value = null;
    TException failure = null;
    protocol.readStructBegin();
    for (TField field = protocol.readFieldBegin(); field.type != TType.STOP; field = protocol.readFieldBegin()) {
      if (field.id == 0 && field.type == TType.STRING) {
        value = protocol.readString();
      } else if (field.id == 0 && field.type == TType.BOOL) {
        value = protocol.readBool();
      } else if (field.id == 0 && field.type == TType.SET) {
        value = readStringSet();
      } else if (field.id == 1 && field.type == TType.STRUCT) {
        failure = readSecurityException();
      } else {
        TProtocolUtil.skip(protocol, field.type);
      }
      protocol.readFieldEnd();
    }
    protocol.readStructEnd();
    protocol.readMessageEnd();
    if (failure != null) {
      throw failure;
    }
    if (value == null) {
      throw new TApplicationException(TApplicationException.MISSING_RESULT, method + " returned nothing");
    }
    return value;
  }

  private Set<String> readStringSet() throws TException {
    TSet set = protocol.readSetBegin();
    Set<String> values = new HashSet<>();
    for (int i = 0; i < set.size; i++) {
      values.add(protocol.readString());
    }
    protocol.readSetEnd();
    return values;
  }

  private SecurityException readSecurityException() throws TException {
    String user = null;
    int code = -1;
    protocol.readStructBegin();
    for (TField field = protocol.readFieldBegin(); field.type != TType.STOP; field = protocol.readFieldBegin()) {
      if (field.id == 1 && field.type == TType.STRING) {
        user = protocol.readString();
      } else if (field.id == 2 && field.type == TType.I32) {
        code = protocol.readI32();
      } else {
        TProtocolUtil.skip(protocol, field.type);
      }
      protocol.readFieldEnd();
    }
    protocol.readStructEnd();
    return new SecurityException(user, code);
  }
}
