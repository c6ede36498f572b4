package io.tidemark.tls;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;

/** The configuration keys of one side's TLS material: the TSO's ({@link #SERVER}) or a client's ({@link #CLIENT}). */
public final class TlsKeys {

    public static final TlsKeys SERVER = new TlsKeys(TidemarkConfig.TSO_TLS_CERT, TidemarkConfig.TSO_TLS_KEY,
            TidemarkConfig.TSO_TLS_KEYSTORE, TidemarkConfig.TSO_TLS_KEYSTORE_PASSWORD, TidemarkConfig.TSO_TLS_TRUST);

    public static final TlsKeys CLIENT = new TlsKeys(TidemarkConfig.CLIENT_TSO_TLS_CERT,
            TidemarkConfig.CLIENT_TSO_TLS_KEY, TidemarkConfig.CLIENT_TSO_TLS_KEYSTORE,
            TidemarkConfig.CLIENT_TSO_TLS_KEYSTORE_PASSWORD, TidemarkConfig.CLIENT_TSO_TLS_TRUST);

    final Setting<String> cert;
    final Setting<String> key;
    final Setting<String> keystore;
    final Setting<String> keystorePassword;
    final Setting<String> trust;

    private TlsKeys(Setting<String> cert, Setting<String> key, Setting<String> keystore,
            Setting<String> keystorePassword, Setting<String> trust) {
        this.cert = cert;
        this.key = key;
        this.keystore = keystore;
        this.keystorePassword = keystorePassword;
        this.trust = trust;
    }

    /** The setting naming the PEM certificate chain, for messages. */
    public Setting<String> cert() {
        return cert;
    }

    /** The setting naming the key store, for messages. */
    public Setting<String> keystore() {
        return keystore;
    }

    /** The setting naming the trusted CA certificates, for messages. */
    public Setting<String> trust() {
        return trust;
    }
}
