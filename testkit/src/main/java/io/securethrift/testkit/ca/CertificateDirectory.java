package io.securethrift.testkit.ca;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link java.nio.file.Path} parameter that {@link CertificateAuthorityExtension} fills
 * with its temporary directory, the place to write key stores and PEM files; it is deleted
 * after the test class.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface CertificateDirectory {}
