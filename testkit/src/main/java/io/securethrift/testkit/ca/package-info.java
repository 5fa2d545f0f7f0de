/**
 * Certificates for tests: {@link io.securethrift.testkit.ca.TestCertificateAuthority} issues CA and leaf
 * certificates (good, expired, wrong name) and writes them as PKCS12, JKS or PEM, as a library or a JUnit 5 extension.
 */
package io.securethrift.testkit.ca;
