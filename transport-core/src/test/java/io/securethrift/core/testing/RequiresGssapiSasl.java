package io.securethrift.core.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test negotiates GSSAPI SASL, so it runs only where {@link GssapiSasl#available()} (the module is loaded). */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(GssapiSasl.class)
public @interface RequiresGssapiSasl {}
