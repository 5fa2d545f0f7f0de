/**
 * Not API: internals that securethrift's own modules and core's packages share (framing, escaped exceptions, the JMX
 * counters, the operations {@link io.securethrift.core.internal.SharedAccess} hands to the transport package). Public
 * only so those modules can reach them; nothing here is for applications, and any of it may change in any release.
 * Users start at {@code io.securethrift.core.SecurityConfig}.
 */
package io.securethrift.core.internal;
