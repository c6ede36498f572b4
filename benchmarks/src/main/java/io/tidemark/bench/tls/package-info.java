/**
 * What TLS on the TSO port costs: handshake time and BEGIN+COMMIT latency and throughput, plaintext against TLS and
 * mutual TLS. Parameters and return values are non-null unless documented.
 */
package io.tidemark.bench.tls;
