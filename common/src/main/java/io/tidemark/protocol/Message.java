package io.tidemark.protocol;

/** A message of the TSO wire protocol. Every message is immutable. */
public interface Message {

    MessageType type();
}
