package io.securethrift.bench.sasl;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The AES-GCM providers a {@code securethrift.sasl.privacy=aes-gcm} configuration can choose, on the records' access
 * pattern: a 1 MiB message sealed as sixteen records of 65,520 bytes (AES-256, a fresh nonce each) and each record
 * opened into the matching range of a 1 MiB read buffer, either straight between the arrays ({@code array}) or
 * through direct buffers the record is copied into and out of ({@code direct}). The score counts bytes: a byte
 * sealed and opened once, both ends' work for one direction of a connection. Not among {@code sasl-bench}'s defaults;
 * {@code sasl-bench AesGcmProviderBenchmark} runs it, on another Java runtime with JMH's {@code -jvm}: the JDK's own
 * cipher differs from release to release.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(AesGcmProviderBenchmark.MESSAGE)
public class AesGcmProviderBenchmark {
  static final int MESSAGE = 1 << 20;
  /** The plain bytes of a full record ({@code SaslData.RECORD} in the SASL module). */
  private static final int RECORD = 64 * 1024 - 16;
  private static final int TAG_BITS = 128;

  @Param({"jdk", "conscrypt", "accp"})
  public String provider;

  @Param({"array", "direct"})
  public String access;

  private final byte[] message = new byte[MESSAGE];
  private final byte[] read = new byte[MESSAGE];
  private final byte[] record = new byte[RECORD + TAG_BITS / 8];
  private final byte[] nonce = new byte[12];
  private ByteBuffer directPlain;
  private ByteBuffer directRecord;
  private SecretKeySpec key;
  private Cipher sealer;
  private Cipher opener;
  private long sequence;

  @Setup
  public void setUp() throws GeneralSecurityException {
    new Random(14).nextBytes(message);
    byte[] keyBytes = new byte[32];
    new Random(15).nextBytes(keyBytes);
    key = new SecretKeySpec(keyBytes, "AES");
    Provider chosen = provider(provider);
    sealer = chosen == null ? Cipher.getInstance("AES/GCM/NoPadding") : Cipher.getInstance("AES/GCM/NoPadding", chosen);
    opener = chosen == null ? Cipher.getInstance("AES/GCM/NoPadding") : Cipher.getInstance("AES/GCM/NoPadding", chosen);
    directPlain = ByteBuffer.allocateDirect(record.length);
    directRecord = ByteBuffer.allocateDirect(record.length);
  }

  private static Provider provider(String name) {
    switch (name) {
      case "jdk":
        return null;
      case "conscrypt":
        return SaslKerberos.conscrypt();
      case "accp":
        return SaslKerberos.accp();
      default:
        throw new IllegalArgumentException("provider " + name + ": expected jdk, conscrypt or accp");
    }
  }

  /** Seals and opens one 1 MiB message; returns the last record's plain length so nothing is optimised away. */
  @Benchmark
  public int sealAndOpenOneMebibyte() throws GeneralSecurityException {
    boolean direct = access.equals("direct");
    int opened = 0;
    for (int offset = 0; offset < MESSAGE; offset += RECORD) {
      int length = Math.min(RECORD, MESSAGE - offset);
      GCMParameterSpec spec = nextNonce();
      sealer.init(Cipher.ENCRYPT_MODE, key, spec);
      opener.init(Cipher.DECRYPT_MODE, key, spec);
      if (direct) {
        directPlain.clear();
        directPlain.put(message, offset, length).flip();
        directRecord.clear();
        sealer.doFinal(directPlain, directRecord);
        directRecord.flip();
        directPlain.clear();
        opened = opener.doFinal(directRecord, directPlain);
        directPlain.flip();
        directPlain.get(read, offset, opened);
      } else {
        int sealed = sealer.doFinal(message, offset, length, record, 0);
        opened = opener.doFinal(record, 0, sealed, read, offset);
      }
    }
    return opened;
  }

  /** Whether the last message opened is the message sealed: for the benchmark's own test. */
  boolean openedWhatWasSealed() {
    return Arrays.equals(message, read);
  }

  private GCMParameterSpec nextNonce() {
    long n = sequence++;
    for (int i = 0; i < 8; i++) {
      nonce[11 - i] = (byte) (n >>> (8 * i));
    }
    return new GCMParameterSpec(TAG_BITS, nonce);
  }
}
