package io.securethrift.docs;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.netty.NettyThriftServer;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import javax.management.ObjectName;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * What an application on the module path does, run by {@link ModulePathTest} in a JVM whose class path holds only
 * this class's directory and whose module path holds securethrift's modules and their dependencies: it checks that
 * the modules are the explicit ones, that {@code io.securethrift.core.internal} is closed to it, and calls an echo
 * service on a {@link NettyThriftServer} over plain TCP and over TLS (Conscrypt on the client, JSSE on the server),
 * the TLS layer found only through core's {@code uses} and tls's {@code provides}. Any failure throws, so the JVM
 * exits non-zero; each step prints one line for the test to read.
 *
 * <p>Arguments: the directory with {@code none-server.properties}, {@code none-client.properties},
 * {@code tls-server.properties} and {@code tls-client.properties}.
 */
public final class ModulePathProgram {
  static final String GREETING = "hello from the module path";
  static final String DONE = "module path: all checks passed";
  private static final String INTERNAL = "io.securethrift.core.internal";
  private static final TStruct TEXT = new TStruct("Text");
  private static final TField TEXT_FIELD = new TField("text", TType.STRING, (short) 1);

  private ModulePathProgram() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Module core = SecurityConfig.class.getModule();
    if (core.getDescriptor() == null || core.getDescriptor().isAutomatic()) {
      throw new AssertionError("io.securethrift.core is not an explicit module here: " + core);
    }
    Module tls = core.getLayer().findModule("io.securethrift.tls")
        .orElseThrow(() -> new AssertionError("io.securethrift.tls was not resolved as core's LayerProvider"));
    if (core.isExported(INTERNAL) || !core.isExported(INTERNAL, tls)) {
      throw new AssertionError(INTERNAL + " must be exported to io.securethrift.tls only, not to this class");
    }
    try {
      Class.forName(INTERNAL + ".RuntimeModules").getMethod("loaded", String.class).invoke(null, "java.base");
      throw new AssertionError(INTERNAL + " is open to the unnamed module");
    } catch (IllegalAccessException expected) {
      System.out.println("module path: " + INTERNAL + " is closed to applications");
    }
    for (String mode : new String[] {"none", "tls"}) {
      SecurityConfig server = SecurityConfigFiles.read(dir.resolve(mode + "-server.properties"), mode + " server");
      SecurityConfig client = SecurityConfigFiles.read(dir.resolve(mode + "-client.properties"), mode + " client");
      try (NettyThriftServer echo = NettyThriftServer.builder(server, ModulePathProgram::echo).build()
          .start(new InetSocketAddress("localhost", 0))) {
        System.out.println(mode + ": " + call(client, echo.port()));
        // The server's counters are a JMX bean whose class is in the internal package: JMX reads it all the same.
        Object successes = ManagementFactory.getPlatformMBeanServer().getAttribute(
            new ObjectName("io.securethrift:type=Server,port=" + echo.port()), "HandshakeSuccesses");
        System.out.println(mode + ": JMX HandshakeSuccesses " + successes);
      }
    }
    System.out.println(DONE);
  }

  /** One call on a new connection: the echoed text and how the connection was secured. */
  private static String call(SecurityConfig config, int port) throws TException {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config);
        SecuredTransport transport = factory.open("localhost", port)) {
      TProtocol protocol = transport.protocol(new TBinaryProtocol.Factory());
      write(protocol, new TMessage("echo", TMessageType.CALL, 1), GREETING);
      protocol.readMessageBegin();
      String answer = read(protocol);
      return answer + " over " + transport.peerIdentity().tlsProtocol().orElse("plain TCP");
    }
  }

  /** The server's side: answers a call with its text. */
  private static void echo(TProtocol in, TProtocol out) throws TException {
    TMessage call = in.readMessageBegin();
    String text = read(in);
    write(out, new TMessage(call.name, TMessageType.REPLY, call.seqid), text);
  }

  /** A message whose body is a struct of one string field, as a generated client or processor writes it. */
  private static void write(TProtocol protocol, TMessage message, String text) throws TException {
    protocol.writeMessageBegin(message);
    protocol.writeStructBegin(TEXT);
    protocol.writeFieldBegin(TEXT_FIELD);
    protocol.writeString(text);
    protocol.writeFieldEnd();
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeMessageEnd();
    protocol.getTransport().flush();
  }

  /** The string field of a message written by {@link #write}, whose header has been read. */
  private static String read(TProtocol protocol) throws TException {
    String text = null;
    protocol.readStructBegin();
    for (TField field = protocol.readFieldBegin(); field.type != TType.STOP; field = protocol.readFieldBegin()) {
      if (field.id == TEXT_FIELD.id && field.type == TType.STRING) {
        text = protocol.readString();
      } else {
        TProtocolUtil.skip(protocol, field.type);
      }
      protocol.readFieldEnd();
    }
    protocol.readStructEnd();
    protocol.readMessageEnd();
    return text;
  }
}
