package io.tidemark.bench.attack;

import javax.net.ssl.SSLSocketFactory;
import java.net.InetSocketAddress;

/**
 * What an attack aims at: the TSO's port, its HTTP endpoint, and when the TSO speaks TLS, how to reach it as a client
 * it lets in (with a certificate it trusts) and as anybody (no certificate).
 *
 * @param tso the TSO's client port
 * @param http the TSO's HTTP endpoint
 * @param authenticated TLS as a client with a trusted certificate; null when the TSO speaks plaintext
 * @param anonymous TLS without a client certificate; null when the TSO speaks plaintext
 */
public record Target(InetSocketAddress tso, InetSocketAddress http, SSLSocketFactory authenticated,
                     SSLSocketFactory anonymous) {

    /** A plaintext TSO. */
    public static Target plaintext(InetSocketAddress tso, InetSocketAddress http) {
        return new Target(tso, http, null, null);
    }
}
