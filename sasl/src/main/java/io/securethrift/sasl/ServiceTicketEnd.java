package io.securethrift.sasl;

import java.time.Instant;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import javax.security.sasl.SaslException;
import org.apache.kerby.kerberos.kerb.KrbCodec;
import org.apache.kerby.kerberos.kerb.KrbException;
import org.apache.kerby.kerberos.kerb.crypto.EncryptionHandler;
import org.apache.kerby.kerberos.kerb.type.ap.ApReq;
import org.apache.kerby.kerberos.kerb.type.base.EncryptedData;
import org.apache.kerby.kerberos.kerb.type.base.EncryptionKey;
import org.apache.kerby.kerberos.kerb.type.base.EncryptionType;
import org.apache.kerby.kerberos.kerb.type.base.KeyUsage;
import org.apache.kerby.kerberos.kerb.type.ticket.EncTicketPart;
import org.apache.kerby.kerberos.kerb.type.ticket.Ticket;

/**
 * The end time of the service ticket a Kerberos client authenticated with. The JDK's acceptor context does not tell
 * it (its {@code getLifetime()} is indefinite, and {@code ExtendedGSSContext.inquireSecContext} offers the ticket's
 * flags and auth time but not its end time, on Java 11 to 25), so the ticket in the client's AP-REQ is decrypted a
 * second time here, with the acceptor's keytab key and Apache Kerby's ASN.1 types and Kerberos crypto. Only tickets
 * the JDK has already accepted are read. Kerby is an optional dependency: every Kerby type stays inside this class,
 * which is loaded only once Kerby was found at start-up.
 */
final class ServiceTicketEnd {
  private ServiceTicketEnd() {}

  /**
   * The end time of the ticket in {@code apRequest} (a DER AP-REQ the acceptor has accepted), decrypted with the
   * matching key of a keytab in {@code acceptor}.
   *
   * @throws SaslException if the ticket cannot be decoded or decrypted, or the subject holds no key for it
   */
  static Instant of(byte[] apRequest, Subject acceptor) throws SaslException {
    try {
      Ticket ticket = KrbCodec.decode(apRequest, ApReq.class).getTicket();
      EncryptedData sealed = ticket.getEncryptedEncPart();
      KerberosPrincipal service = new KerberosPrincipal(ticket.getSname().getName() + "@" + ticket.getRealm());
      for (KeyTab keyTab : acceptor.getPrivateCredentials(KeyTab.class)) {
        for (KerberosKey key : keyTab.getKeys(service)) {
          if (key.getKeyType() == sealed.getEType().getValue()
              && (sealed.getKvno() <= 0 || key.getVersionNumber() == sealed.getKvno())) {
            byte[] plain = EncryptionHandler.decrypt(sealed, new EncryptionKey(EncryptionType.fromValue(
                key.getKeyType()), key.getEncoded(), key.getVersionNumber()), KeyUsage.KDC_REP_TICKET);
            return Instant.ofEpochMilli(KrbCodec.decode(plain, EncTicketPart.class).getEndTime().getTime());
          }
        }
      }
      throw new SaslException("the acceptor's keytab holds no key of enctype " + sealed.getEType().getValue()
          + ", version " + sealed.getKvno() + " for the service ticket");
    } catch (KrbException | RuntimeException e) {
      throw new SaslException("cannot read the client's service ticket: " + e.getMessage(), e);
    }
  }
}
