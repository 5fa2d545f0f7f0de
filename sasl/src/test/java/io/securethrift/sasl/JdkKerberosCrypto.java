package io.securethrift.sasl;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Kerberos test material made by the JDK's own Kerberos code, an implementation independent of securethrift's: data
 * sealed by {@code sun.security.krb5.EncryptedData} (reached through the {@code --add-exports} this module's test JVM
 * gets; the JDK has no public API for it), keytab files written byte by byte in MIT's version 2 format, so a key of
 * any encryption type can be handed to {@link javax.security.auth.kerberos.KeyTab}, and the enctype of a ticket as
 * the JDK's decoder reads it.
 */
final class JdkKerberosCrypto {
  private JdkKerberosCrypto() {}

  /** The DER EncryptedData (etype, kvno, cipher) the JDK makes of {@code plain} with {@code key} for {@code usage}. */
  static byte[] seal(byte[] key, int etype, int kvno, byte[] plain, int usage) throws ReflectiveOperationException {
    Class<?> keyClass = Class.forName("sun.security.krb5.EncryptionKey");
    Class<?> dataClass = Class.forName("sun.security.krb5.EncryptedData");
    try {
      Object encryptionKey = keyClass.getConstructor(byte[].class, int.class, Integer.class).newInstance(key, etype,
          kvno);
      Object sealed = dataClass.getConstructor(keyClass, byte[].class, int.class).newInstance(encryptionKey, plain,
          usage);
      return (byte[]) dataClass.getMethod("asn1Encode").invoke(sealed);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("the JDK cannot seal with enctype " + etype, e.getCause());
    }
  }

  /** The enctype the ticket in {@code apRequest} (a DER AP-REQ) is sealed with, read by the JDK's decoder. */
  static int ticketEtype(byte[] apRequest) throws ReflectiveOperationException {
    Object request = Class.forName("sun.security.krb5.internal.APReq").getConstructor(byte[].class)
        .newInstance((Object) apRequest);
    Object ticket = request.getClass().getField("ticket").get(request);
    Object sealed = ticket.getClass().getField("encPart").get(ticket);
    return (int) sealed.getClass().getMethod("getEType").invoke(sealed);
  }

  /** A keytab holding one key of {@code principal} ({@code primary/instance@REALM} or {@code name@REALM}). */
  static Path keytab(Path file, String principal, int etype, byte[] key, int kvno) throws IOException {
    int at = principal.lastIndexOf('@');
    String[] components = principal.substring(0, at).split("/");
    ByteArrayOutputStream entry = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(entry);
    out.writeShort(components.length);
    counted(out, principal.substring(at + 1).getBytes(StandardCharsets.UTF_8));
    for (String component : components) {
      counted(out, component.getBytes(StandardCharsets.UTF_8));
    }
    out.writeInt(1); // KRB5_NT_PRINCIPAL
    out.writeInt((int) (System.currentTimeMillis() / 1000));
    out.writeByte(kvno);
    out.writeShort(etype);
    counted(out, key);
    out.writeInt(kvno);
    ByteArrayOutputStream file0 = new ByteArrayOutputStream();
    DataOutputStream whole = new DataOutputStream(file0);
    whole.writeShort(0x0502);
    whole.writeInt(entry.size());
    whole.write(entry.toByteArray());
    return Files.write(file, file0.toByteArray());
  }

  private static void counted(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeShort(bytes.length);
    out.write(bytes);
  }
}
