/**
 * TLS material for the TSO port, read from configuration the same way on both sides: the TSO's (or a client's) key
 * and certificate chain, and the certificates it trusts. Plain JDK: PEM files or a key store in, key and trust
 * managers out. Parameters and return values are non-null unless documented.
 */
package io.tidemark.tls;
