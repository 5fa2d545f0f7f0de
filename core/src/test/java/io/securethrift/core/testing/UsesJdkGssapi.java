package io.securethrift.core.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test pairs with the JDK's GSSAPI SASL mechanism, found through {@code Sasl} as unmodified code finds it; on a
 * runtime without it, {@link GssapiSasl} provides it from a child JVM.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(GssapiSasl.class)
public @interface UsesJdkGssapi {}
