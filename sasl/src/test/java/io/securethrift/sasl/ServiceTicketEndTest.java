package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.nio.file.Path;
import java.time.Instant;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import javax.security.sasl.SaslException;
import org.apache.kerby.kerberos.kerb.KrbCodec;
import org.apache.kerby.kerberos.kerb.type.KerberosTime;
import org.apache.kerby.kerberos.kerb.type.ap.ApReq;
import org.apache.kerby.kerberos.kerb.type.base.EncryptedData;
import org.apache.kerby.kerberos.kerb.type.base.EncryptionKey;
import org.apache.kerby.kerberos.kerb.type.base.EncryptionType;
import org.apache.kerby.kerberos.kerb.type.base.PrincipalName;
import org.apache.kerby.kerberos.kerb.type.ticket.EncTicketPart;
import org.apache.kerby.kerberos.kerb.type.ticket.Ticket;
import org.apache.kerby.kerberos.kerb.type.ticket.TicketFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ServiceTicketEnd} reads only AP-REQs the JDK's acceptor has accepted, but its decoding must still fail with
 * the reason, and allocate nothing from a length it is told, when what it is handed is not one: the server then
 * refuses the client rather than keep its connection for any age. Also a fuzz target (Jazzer) over any input. Tickets
 * sealed with RFC 8009's types, which MIT and FreeIPA KDCs issue and Kerby cannot make, are sealed here by the JDK.
 */
class ServiceTicketEndTest {
  private static final String SERVICE = "thrift/localhost@EXAMPLE.COM";
  private static final Instant END = Instant.parse("2031-02-03T04:05:06Z");

  @ParameterizedTest(name = "enctype {0}")
  @ValueSource(ints = {19, 20})
  void aTicketSealedWithAnRfc8009TypeIsReadWithTheKeytabKey(int etype, @TempDir Path dir) throws Exception {
    byte[] key = AesSha2DecryptionTest.key(etype);
    byte[] request = apRequest(JdkKerberosCrypto.seal(key, etype, 3, encTicketPart(), 2));
    assertEquals(END, ServiceTicketEnd.of(request, acceptor(dir, etype, key)));

    SaslException e = assertThrows(SaslException.class,
        () -> ServiceTicketEnd.of(request, acceptor(dir, etype, AesSha2DecryptionTest.key(etype))));
    assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: the checksum of the encrypted"
        + " data does not match"), e.getMessage());
  }

  private static byte[] encTicketPart() throws Exception {
    EncTicketPart part = new EncTicketPart();
    part.setFlags(new TicketFlags());
    part.setKey(new EncryptionKey(EncryptionType.AES128_CTS_HMAC_SHA1_96, new byte[16]));
    part.setCrealm("EXAMPLE.COM");
    part.setCname(new PrincipalName("client"));
    part.setAuthTime(new KerberosTime(END.minusSeconds(3600).toEpochMilli()));
    part.setEndTime(new KerberosTime(END.toEpochMilli()));
    return KrbCodec.encode(part);
  }

  /** An AP-REQ whose ticket carries {@code sealedDer}, an EncryptedData as the JDK encodes it (etype kept as is). */
  private static byte[] apRequest(byte[] sealedDer) throws Exception {
    Ticket ticket = new Ticket();
    ticket.setSname(new PrincipalName("thrift/localhost"));
    ticket.setRealm("EXAMPLE.COM");
    ticket.setEncryptedEncPart(KrbCodec.decode(sealedDer, EncryptedData.class));
    ApReq request = new ApReq();
    request.setTicket(ticket);
    request.setEncryptedAuthenticator(KrbCodec.decode(sealedDer, EncryptedData.class));
    return KrbCodec.encode(request);
  }

  private static Subject acceptor(Path dir, int etype, byte[] key) throws Exception {
    Path file = JdkKerberosCrypto.keytab(dir.resolve("service-" + etype + "-" + System.nanoTime() + ".keytab"),
        SERVICE, etype, key, 3);
    Subject subject = new Subject();
    subject.getPrivateCredentials().add(KeyTab.getInstance(new KerberosPrincipal(SERVICE), file.toFile()));
    return subject;
  }
  @FuzzTest(maxDuration = "30s")
  void anyInputFailsOnlyWithTheReasonAndWithinItsSize(byte[] input) {
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      try {
        ServiceTicketEnd.of(input, new Subject());
      } catch (SaslException e) {
        // With no keytab in the subject, nothing is accepted; decoding must fail or find no key, saying so.
        assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: ")
            || e.getMessage().startsWith("the acceptor's keytab holds no key"), e.getMessage());
      }
    });
  }

  @Test
  void garbageIsRefusedWithTheReason() {
    SaslException e = assertThrows(SaslException.class,
        () -> ServiceTicketEnd.of(new byte[] {0x6e, 0x03, 0x01, 0x02, 0x03}, new Subject()));
    assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
  }

  @Test
  void aLengthBeyondTheBytesIsRefusedWithoutAllocatingIt() {
    // An APPLICATION 14 (AP-REQ) claiming 2 GiB, then three bytes.
    byte[] claim = {0x6e, (byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x30, 0x01, 0x00};
    ParserOracle.expectOnlyWithinAllocation(claim.length, () -> {
      SaslException e = assertThrows(SaslException.class, () -> ServiceTicketEnd.of(claim, new Subject()));
      assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
    });
  }

  @Test
  void anEmptyRequestIsRefusedWithTheReason() {
    SaslException e = assertThrows(SaslException.class, () -> ServiceTicketEnd.of(new byte[0], new Subject()));
    assertTrue(e.getMessage().startsWith("cannot read the client's service ticket: "), e.getMessage());
  }
}
