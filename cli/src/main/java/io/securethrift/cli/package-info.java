/**
 * {@code bin/securethrift}: the launcher's entry point ({@link io.securethrift.cli.Main}) and the commands that
 * are not a benchmark's own ({@code kdc}, {@code certs}, and the JMH launchers). Harness code, not published.
 */
package io.securethrift.cli;
