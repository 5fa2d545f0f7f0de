package io.securethrift.core.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TLS test matrix: the test runs once on each engine securethrift's transports run on (jsse, conscrypt, openssl),
 * its parameter a {@code TlsEngine} (or its token). A run on an engine that cannot run in this JVM is skipped with
 * the engine's reason ({@link RunnableEnginesOnly}); every other failure fails.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ParameterizedTest
@ValueSource(strings = {"jsse", "conscrypt", "openssl"})
@ExtendWith(RunnableEnginesOnly.class)
public @interface EachTlsEngine {}
