/**
 * Kerberos for tests: {@link io.securethrift.testkit.EmbeddedKdc}, an in-process Apache Kerby KDC with principals,
 * keytabs and a {@code krb5.conf}, usable as a library or as a JUnit 5 extension (JUnit optional).
 */
package io.securethrift.testkit;
