/**
 * securethrift's configuration, where a user starts: {@link io.securethrift.core.SecurityConfig} (built with its
 * {@code Builder}, or read from {@code securethrift.*} properties with
 * {@link io.securethrift.core.SecurityConfigFiles}) holds the security mode, TLS and SASL settings, timeouts and
 * limits, each checked once with a {@link io.securethrift.core.ConfigException} naming the key;
 * {@link io.securethrift.core.ConfigProperty} lists every key. A built configuration goes to the transport factories
 * of {@code io.securethrift.core.transport}; who called a service is in {@code io.securethrift.core.identity}, how
 * handshakes ended in {@code io.securethrift.core.audit}.
 */
package io.securethrift.core;
