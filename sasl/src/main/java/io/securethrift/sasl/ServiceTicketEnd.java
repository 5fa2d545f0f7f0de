package io.securethrift.sasl;

import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Optional;
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
 * second time here, with the acceptor's keytab key and Apache Kerby's ASN.1 types and Kerberos crypto ({@link
 * AesSha2Decryption} for RFC 8009's types, which Kerby lacks and the JDK accepts by default). Only tickets
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
      // Kerby reads an encryption type it does not know, such as RFC 8009's, as NONE (0).
      int etype = sealed.getEType().getValue();
      KerberosPrincipal service = new KerberosPrincipal(ticket.getSname().getName() + "@" + ticket.getRealm());
      GeneralSecurityException mismatch = null;
      for (KeyTab keyTab : acceptor.getPrivateCredentials(KeyTab.class)) {
        for (KerberosKey key : keyTab.getKeys(service)) {
          if (sealed.getKvno() > 0 && key.getVersionNumber() != sealed.getKvno()) {
            continue;
          }
          Optional<AesSha2Decryption> aesSha2 = AesSha2Decryption.of(key.getKeyType());
          if (key.getKeyType() == etype) {
            return endTime(EncryptionHandler.decrypt(sealed, new EncryptionKey(EncryptionType.fromValue(etype),
                key.getEncoded(), key.getVersionNumber()), KeyUsage.KDC_REP_TICKET));
          } else if (etype == EncryptionType.NONE.getValue() && aesSha2.isPresent()) {
            // The type is not named then: the key whose checksum matches is the one (and its type the ticket's).
            try {
              return endTime(aesSha2.get().decrypt(key.getEncoded(), KeyUsage.KDC_REP_TICKET.getValue(),
                  sealed.getCipher()));
            } catch (GeneralSecurityException e) {
              mismatch = e;
            }
          }
        }
      }
      if (mismatch != null) {
        throw mismatch;
      }
      throw new SaslException("the acceptor's keytab holds no key of enctype " + etype + ", version "
          + sealed.getKvno() + " for the service ticket");
    } catch (KrbException | GeneralSecurityException | RuntimeException e) {
      throw new SaslException("cannot read the client's service ticket: " + e.getMessage(), e);
    }
  }

  private static Instant endTime(byte[] encTicketPart) throws KrbException {
    return Instant.ofEpochMilli(KrbCodec.decode(encTicketPart, EncTicketPart.class).getEndTime().getTime());
  }
}
