package io.securethrift.core;

/**
 * Size limits for tests that drive a transport directly, with any values: {@link Limits}' constructor is not API (only
 * {@link SecurityConfig.Builder#build()} makes one, after checking both values). Test code only.
 */
public final class TestLimits {
  private TestLimits() {}

  public static Limits of(int maxFrameSize, int maxNegotiationMessageSize) {
    return new Limits(maxFrameSize, maxNegotiationMessageSize);
  }
}
