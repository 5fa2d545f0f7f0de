package io.securethrift.sasl;

import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.security.auth.Subject;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * One side's SASL mechanism, client or server, behind one type so negotiation and the data phase are written once
 * ({@link SaslClient} and {@link SaslServer} share no supertype). Token evaluation runs inside {@code Subject.doAs}
 * of the Kerberos login when there is one, since GSSAPI finds its credentials there.
 */
final class SaslEndpoint {
  @FunctionalInterface
  private interface Evaluator {
    byte[] evaluate(byte[] token) throws SaslException;
  }

  @FunctionalInterface
  private interface Codec {
    byte[] apply(byte[] bytes, int offset, int length) throws SaslException;
  }

  @FunctionalInterface
  private interface Disposer {
    void dispose() throws SaslException;
  }

  private final Evaluator evaluator;
  private final BooleanSupplier complete;
  private final Codec wrap;
  private final Codec unwrap;
  private final Function<String, Object> properties;
  private final Disposer disposer;
  private final Supplier<String> authorizationId;
  /** The data phase of securethrift's GSSAPI mechanism once complete; null for any other mechanism. */
  private final Supplier<GssLayer> gssLayer;
  /** A complete GSSAPI server's client AP-REQ; null on a client and for any other mechanism. */
  private final Supplier<byte[]> apRequest;

  private SaslEndpoint(Evaluator evaluator, BooleanSupplier complete, Codec wrap, Codec unwrap,
      Function<String, Object> properties, Disposer disposer, Supplier<String> authorizationId,
      Supplier<GssLayer> gssLayer, Supplier<byte[]> apRequest) {
    this.evaluator = evaluator;
    this.complete = complete;
    this.wrap = wrap;
    this.unwrap = unwrap;
    this.properties = properties;
    this.disposer = disposer;
    this.authorizationId = authorizationId;
    this.gssLayer = gssLayer;
    this.apRequest = apRequest;
  }

  /** A client mechanism, evaluating challenges as {@code subject} (directly when null). */
  static SaslEndpoint client(SaslClient sasl, Subject subject) {
    return new SaslEndpoint(token -> as(subject, () -> sasl.evaluateChallenge(token)), sasl::isComplete, sasl::wrap,
        sasl::unwrap, sasl::getNegotiatedProperty, sasl::dispose, () -> null,
        sasl instanceof GssapiClient ? ((GssapiClient) sasl)::layer : null, null);
  }

  /** A server mechanism, evaluating responses as {@code subject} (directly when null). */
  static SaslEndpoint server(SaslServer sasl, Subject subject) {
    return new SaslEndpoint(token -> as(subject, () -> sasl.evaluateResponse(token)), sasl::isComplete, sasl::wrap,
        sasl::unwrap, sasl::getNegotiatedProperty, sasl::dispose, sasl::getAuthorizationID,
        sasl instanceof GssapiServer ? ((GssapiServer) sasl)::layer : null,
        sasl instanceof GssapiServer ? ((GssapiServer) sasl)::apRequest : null);
  }

  byte[] evaluate(byte[] token) throws SaslException {
    return evaluator.evaluate(token);
  }

  boolean isComplete() {
    return complete.getAsBoolean();
  }

  byte[] wrap(byte[] bytes, int offset, int length) throws SaslException {
    return wrap.apply(bytes, offset, length);
  }

  byte[] unwrap(byte[] bytes, int offset, int length) throws SaslException {
    return unwrap.apply(bytes, offset, length);
  }

  Object negotiatedProperty(String name) {
    return properties.apply(name);
  }

  /** Who the peer authenticated as, on a server once negotiation is complete; null on a client. */
  String authorizationId() {
    return authorizationId.get();
  }

  /**
   * Whether the mechanism negotiates securethrift's AES-GCM privacy itself (securethrift's GSSAPI), so no separate key
   * exchange follows it.
   */
  boolean negotiatesPrivacy() {
    return gssLayer != null;
  }

  /** The AES-GCM layer a complete mechanism negotiated; null when it wraps with its own tokens. */
  GssLayer aesGcm() {
    GssLayer layer = gssLayer == null ? null : gssLayer.get();
    return layer != null && layer.sealer() != null ? layer : null;
  }

  /** The AP-REQ a Kerberos client authenticated to this complete server with; empty for other mechanisms. */
  Optional<byte[]> apRequest() {
    return apRequest == null ? Optional.empty() : Optional.ofNullable(apRequest.get());
  }

  void dispose() {
    try {
      disposer.dispose();
    } catch (SaslException ignored) {
      // Disposal only releases keys early; the connection is over either way.
    }
  }

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
      if (e.getException() instanceof SaslException) {
        throw (SaslException) e.getException();
      }
      throw new SaslException(e.getException().getMessage(), e.getException());
    }
  }
}
