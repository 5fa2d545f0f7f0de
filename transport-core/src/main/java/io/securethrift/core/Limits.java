package io.securethrift.core;

/**
 * Size limits, checked against a length header before any buffer is allocated.
 *
 * @param maxFrameSize the largest data frame (one Thrift message, or one SASL-wrapped token) either side accepts
 * @param maxNegotiationMessageSize the largest SASL negotiation message accepted before authentication completes
 */
public record Limits(int maxFrameSize, int maxNegotiationMessageSize) {}
