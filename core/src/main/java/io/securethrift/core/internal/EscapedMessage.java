package io.securethrift.core.internal;

import io.securethrift.core.identity.PeerText;

/**
 * Marks an exception whose message is already {@link PeerText} output: whatever of a peer's text
 * it quotes was escaped once, where it entered the message. {@link PeerText#describe} and
 * {@link PeerText#messageOf} quote such a message as it is; escaping it again would double every
 * backslash. An exception whose message quotes another exception's text through either of them must carry this mark
 * (or be a {@link io.securethrift.core.spi.HandshakeFailure} or a {@link io.securethrift.core.ConfigException}, whose
 * messages are escaped by contract); one without it is taken to hold raw text, escaped when it is quoted.
 */
public interface EscapedMessage {}
