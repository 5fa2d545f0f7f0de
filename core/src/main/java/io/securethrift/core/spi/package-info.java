/**
 * Service-provider interfaces for the modules that plug into core, not for applications: the TLS and SASL modules
 * supply their layers through {@link io.securethrift.core.spi.LayerProvider} (found with {@code ServiceLoader} and
 * handed the identity issuer), other products' configuration files are read by a
 * {@link io.securethrift.core.spi.ConfigFileReader}, and drop-in providers add their part of the security file through
 * {@link io.securethrift.core.spi.DropIn}. A module implementing them starts at {@code LayerProvider}.
 */
package io.securethrift.core.spi;
