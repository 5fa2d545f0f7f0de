package io.securethrift.sasl;

import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import javax.security.auth.Subject;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * One side's SASL mechanism, client or server, behind one interface so negotiation and the data phase are written
 * once. Token evaluation runs inside {@code Subject.doAs} of the Kerberos login when there is one, since GSSAPI finds
 * its credentials there.
 */
interface SaslEndpoint {
  byte[] evaluate(byte[] token) throws SaslException;

  boolean isComplete();

  byte[] wrap(byte[] bytes, int offset, int length) throws SaslException;

  byte[] unwrap(byte[] bytes, int offset, int length) throws SaslException;

  Object negotiatedProperty(String name);

  void dispose();

  /** Runs {@code action} as {@code subject} (directly when null), unwrapping the checked exception. */
  static <T> T as(Subject subject, PrivilegedExceptionAction<T> action) throws SaslException {
    if (subject == null) {
      try {
        return action.run();
      } catch (SaslException e) {
        throw e;
      } catch (Exception e) {
        throw new SaslException(e.getMessage(), e);
      }
    }
    try {
      return Subject.doAs(subject, action);
    } catch (PrivilegedActionException e) {
      if (e.getException() instanceof SaslException s) {
        throw s;
      }
      throw new SaslException(e.getException().getMessage(), e.getException());
    }
  }

  /** Adapts a {@link SaslClient}. */
  record Client(SaslClient sasl, Subject subject) implements SaslEndpoint {
    @Override
    public byte[] evaluate(byte[] token) throws SaslException {
      return as(subject, () -> sasl.evaluateChallenge(token));
    }

    @Override
    public boolean isComplete() {
      return sasl.isComplete();
    }

    @Override
    public byte[] wrap(byte[] bytes, int offset, int length) throws SaslException {
      return sasl.wrap(bytes, offset, length);
    }

    @Override
    public byte[] unwrap(byte[] bytes, int offset, int length) throws SaslException {
      return sasl.unwrap(bytes, offset, length);
    }

    @Override
    public Object negotiatedProperty(String name) {
      return sasl.getNegotiatedProperty(name);
    }

    @Override
    public void dispose() {
      try {
        sasl.dispose();
      } catch (SaslException ignored) {
        // Disposal only releases keys early; the connection is over either way.
      }
    }
  }

  /** Adapts a {@link SaslServer}. */
  record Server(SaslServer sasl, Subject subject) implements SaslEndpoint {
    @Override
    public byte[] evaluate(byte[] token) throws SaslException {
      return as(subject, () -> sasl.evaluateResponse(token));
    }

    @Override
    public boolean isComplete() {
      return sasl.isComplete();
    }

    @Override
    public byte[] wrap(byte[] bytes, int offset, int length) throws SaslException {
      return sasl.wrap(bytes, offset, length);
    }

    @Override
    public byte[] unwrap(byte[] bytes, int offset, int length) throws SaslException {
      return sasl.unwrap(bytes, offset, length);
    }

    @Override
    public Object negotiatedProperty(String name) {
      return sasl.getNegotiatedProperty(name);
    }

    @Override
    public void dispose() {
      try {
        sasl.dispose();
      } catch (SaslException ignored) {
        // Disposal only releases keys early; the connection is over either way.
      }
    }
  }
}
