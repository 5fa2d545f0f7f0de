package io.securethrift.accumulo.legacy;

import java.nio.ByteBuffer;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * Two calls of Accumulo 1.7's {@code ClientService} written by hand with the TProtocol API, because 1.7's generated
 * stubs need libthrift 0.9.1. Field ids are those of 1.7's {@code client.thrift}, {@code security.thrift} and
 * {@code trace.thrift}: {@code getInstanceId()} returns field 0; {@code authenticate(1: TInfo tinfo,
 * 2: TCredentials credentials)} returns bool field 0 or throws {@code ThriftSecurityException} (1: user,
 * 2: code) as field 1; {@code TCredentials} is 1: principal, 2: tokenClassName, 3: token, 4: instanceId;
 * {@code TInfo} is 1: traceId, 2: parentId. 1.7 speaks TCompactProtocol without multiplexing.
 */
final class ClientService17 {
  private final TProtocol protocol;
  private int sequence;

  ClientService17(TProtocol protocol) {
    this.protocol = protocol;
  }

  /** Credentials as 1.7 sends them: the token is the serialized {@code AuthenticationToken}. */
  static final class Credentials {
    private final String principal;
    private final String tokenClassName;
    private final byte[] token;
    private final String instanceId;

    Credentials(String principal, String tokenClassName, byte[] token, String instanceId) {
      this.principal = principal;
      this.tokenClassName = tokenClassName;
      this.token = token;
      this.instanceId = instanceId;
    }

    String principal() {
      return principal;
    }

    String tokenClassName() {
      return tokenClassName;
    }

    byte[] token() {
      return token;
    }

    String instanceId() {
      return instanceId;
    }
  }

  /** A {@code ThriftSecurityException} from the server. */
  static final class SecurityException extends TException {
    SecurityException(String user, int code) {
      super("ThriftSecurityException for " + user + ", code " + code);
    }
  }

  String getInstanceId() throws TException {
    send("getInstanceId");
    protocol.writeStructBegin(new TStruct("getInstanceId_args"));
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    finish();
    Object result = receive("getInstanceId");
    return (String) result;
  }

  boolean authenticate(Credentials credentials) throws TException {
    send("authenticate");
    protocol.writeStructBegin(new TStruct("authenticate_args"));
    protocol.writeFieldBegin(new TField("tinfo", TType.STRUCT, (short) 1));
    protocol.writeStructBegin(new TStruct("TInfo"));
    protocol.writeFieldBegin(new TField("traceId", TType.I64, (short) 1));
    protocol.writeI64(0);
    protocol.writeFieldEnd();
    protocol.writeFieldBegin(new TField("parentId", TType.I64, (short) 2));
    protocol.writeI64(0);
    protocol.writeFieldEnd();
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeFieldEnd();
    protocol.writeFieldBegin(new TField("credentials", TType.STRUCT, (short) 2));
    protocol.writeStructBegin(new TStruct("TCredentials"));
    string(1, "principal", credentials.principal());
    string(2, "tokenClassName", credentials.tokenClassName());
    protocol.writeFieldBegin(new TField("token", TType.STRING, (short) 3));
    protocol.writeBinary(ByteBuffer.wrap(credentials.token()));
    protocol.writeFieldEnd();
    string(4, "instanceId", credentials.instanceId());
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeFieldEnd();
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    finish();
    return (Boolean) receive("authenticate");
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
