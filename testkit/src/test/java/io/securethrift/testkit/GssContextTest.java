package io.securethrift.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivilegedExceptionAction;
import javax.security.auth.Subject;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Proves that service keytabs work: a client and a service establish a Kerberos GSS context. */
@ExtendWith(KdcExtension.class)
class GssContextTest {

  private static final Oid KRB5 = krb5Oid();

  @Test
  void clientAndServiceEstablishContext(EmbeddedKdc kdc) throws Exception {
    Subject client = KerberosLogin.login(kdc.principal("client"));
    Subject service = KerberosLogin.login(kdc.servicePrincipal("accumulo", "localhost"), false);
    GSSManager manager = GSSManager.getInstance();

    GSSContext initiator =
        doAs(
            client,
            () -> {
              GSSName target =
                  manager.createName("accumulo@localhost", GSSName.NT_HOSTBASED_SERVICE);
              GSSContext context =
                  manager.createContext(target, KRB5, null, GSSContext.DEFAULT_LIFETIME);
              context.requestMutualAuth(true);
              return context;
            });
    GSSContext acceptor = doAs(service, () -> manager.createContext((GSSCredential) null));

    byte[] token = new byte[0];
    while (!initiator.isEstablished() || !acceptor.isEstablished()) {
      byte[] input = token;
      if (!initiator.isEstablished()) {
        token = doAs(client, () -> initiator.initSecContext(input, 0, input.length));
      }
      if (token != null && token.length > 0 && !acceptor.isEstablished()) {
        byte[] request = token;
        token = doAs(service, () -> acceptor.acceptSecContext(request, 0, request.length));
      }
      if (token == null) {
        token = new byte[0];
      }
    }

    assertEquals("client@EXAMPLE.COM", acceptor.getSrcName().toString());
    assertEquals("accumulo/localhost@EXAMPLE.COM", acceptor.getTargName().toString());
    assertTrue(initiator.getMutualAuthState());
    initiator.dispose();
    acceptor.dispose();
  }

  private static <T> T doAs(Subject subject, PrivilegedExceptionAction<T> action)
      throws Exception {
    return Subject.doAs(subject, action);
  }

  private static Oid krb5Oid() {
    try {
      return new Oid("1.2.840.113554.1.2.2");
    } catch (org.ietf.jgss.GSSException e) {
      throw new IllegalStateException(e);
    }
  }
}
