package io.tidemark.tls;

import io.tidemark.config.TidemarkConfig;

/** The configuration keys of one side's TLS material: the TSO's ({@link #SERVER}) or a client's ({@link #CLIENT}). */
public final class TlsKeys {

    public static final TlsKeys SERVER = new TlsKeys(TidemarkConfig.TSO_TLS_CERT, TidemarkConfig.TSO_TLS_KEY,
            TidemarkConfig.TSO_TLS_KEYSTORE, TidemarkConfig.TSO_TLS_KEYSTORE_PASSWORD, TidemarkConfig.TSO_TLS_TRUST);

    public static final TlsKeys CLIENT = new TlsKeys(TidemarkConfig.CLIENT_TSO_TLS_CERT,
            TidemarkConfig.CLIENT_TSO_TLS_KEY, TidemarkConfig.CLIENT_TSO_TLS_KEYSTORE,
            TidemarkConfig.CLIENT_TSO_TLS_KEYSTORE_PASSWORD, TidemarkConfig.CLIENT_TSO_TLS_TRUST);

    final String cert;
    final String key;
    final String keystore;
    final String keystorePassword;
    final String trust;

    private TlsKeys(String cert, String key, String keystore, String keystorePassword, String trust) {
        this.cert = cert;
        this.key = key;
        this.keystore = keystore;
        this.keystorePassword = keystorePassword;
        this.trust = trust;
    }

    /** The key naming the PEM certificate chain, for messages. */
    public String cert() {
        return cert;
    }

    /** The key naming the key store, for messages. */
    public String keystore() {
        return keystore;
    }

    /** The key naming the trusted CA certificates, for messages. */
    public String trust() {
        return trust;
    }
}
