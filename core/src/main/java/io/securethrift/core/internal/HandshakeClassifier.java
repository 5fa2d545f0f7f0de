package io.securethrift.core.internal;

import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.spi.HandshakeFailure;
import java.io.EOFException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLException;
import org.apache.thrift.transport.TTransportException;

/** Tells why a handshake failed, for the audit and the blocking server's refusals alike. */
public final class HandshakeClassifier {
  private HandshakeClassifier() {}

  /** The cause of {@code error}, raised while {@code stage} of the handshake ran. */
  public static AuthFailure classify(Throwable error, HandshakeAudit.Stage stage) {
    HandshakeFailure classified = HandshakeFailure.in(error);
    if (classified != null) {
      return classified.reason();
    }
    boolean timeout = false;
    boolean tls = false;
    boolean closed = false;
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof FrameReader.OverLimit) {
        return AuthFailure.OVER_LIMIT;
      }
      timeout |= t instanceof SocketTimeoutException
          || t instanceof TTransportException && ((TTransportException) t).getType() == TTransportException.TIMED_OUT;
      tls |= t instanceof SSLException;
      closed |= t instanceof EOFException || t instanceof SocketException
          || t instanceof TTransportException && ((TTransportException) t).getType() == TTransportException.END_OF_FILE;
    }
    if (timeout) {
      return AuthFailure.TIMEOUT;
    }
    if (tls) {
      return AuthFailure.TLS_ALERT;
    }
    if (closed) {
      return AuthFailure.CLOSED_DURING_HANDSHAKE;
    }
    return stage == HandshakeAudit.Stage.TLS ? AuthFailure.TLS_ALERT : AuthFailure.SASL_BAD;
  }
}
