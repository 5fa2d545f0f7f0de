package io.securethrift.core;

/**
 * The size limits of a {@link SecurityConfig}, checked against a length header before any buffer is allocated.
 * Immutable; only {@link SecurityConfig.Builder#build()} creates one, after checking both values, so a limit outside
 * the accepted range cannot reach a transport.
 *
 * <p>Defaults: a 16 MiB {@linkplain #maxFrameSize() frame} ({@link ConfigProperty#LIMIT_MAX_FRAME_SIZE}, 1 KiB to
 * 2047 MiB) and a 64 KiB {@linkplain #maxNegotiationMessageSize() negotiation message}
 * ({@link ConfigProperty#LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE}, 1 KiB up to the frame limit).
 */
public final class Limits {
  private final int maxFrameSize;
  private final int maxNegotiationMessageSize;

  Limits(int maxFrameSize, int maxNegotiationMessageSize) {
    this.maxFrameSize = maxFrameSize;
    this.maxNegotiationMessageSize = maxNegotiationMessageSize;
  }

  /** The largest data frame (one Thrift message, or one SASL-wrapped token) either side accepts, in bytes. */
  public int maxFrameSize() {
    return maxFrameSize;
  }

  /** The largest SASL negotiation message accepted before authentication completes, in bytes. */
  public int maxNegotiationMessageSize() {
    return maxNegotiationMessageSize;
  }
}
