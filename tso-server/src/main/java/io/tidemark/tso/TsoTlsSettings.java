package io.tidemark.tso;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tls.TlsKeys;
import io.tidemark.tls.TlsMaterial;
import org.jspecify.annotations.Nullable;

import java.util.Set;
import javax.net.ssl.SSLException;
import javax.security.auth.x500.X500Principal;

/**
 * TLS on the TSO port ({@code tidemark.tso.tls.*}): off, TLS, or mutual TLS with an optional allow-list of client
 * certificate subjects. Read and validated once; every file is read here, so a bad one fails at start-up.
 */
public final class TsoTlsSettings {

    /** TLS versions the TSO speaks; older ones have known weaknesses. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final boolean enabled;
    private final @Nullable TlsMaterial material;
    private final boolean clientCertificateRequired;
    private final Set<X500Principal> allowedClients;

    TsoTlsSettings(TidemarkConfig config) {
        enabled = config.get(TidemarkConfig.TSO_TLS_ENABLED);
        clientCertificateRequired = "require".equals(config.get(TidemarkConfig.TSO_TLS_CLIENT_AUTH));
        allowedClients = allowedClients(config);
        if (!enabled) {
            if (clientCertificateRequired || !allowedClients.isEmpty()) {
                // Refused rather than ignored: the operator believes clients are authenticated.
                throw new InvalidConfigurationException(TidemarkConfig.TSO_TLS_ENABLED, "false", "true, because "
                        + TidemarkConfig.TSO_TLS_CLIENT_AUTH + " or " + TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS
                        + " asks for client certificates, which only exist with TLS");
            }
            material = null;
            return;
        }
        material = TlsMaterial.read(config, TlsKeys.SERVER);
        if (material.keyManagers() == null) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_TLS_ENABLED, "true", "false, or a key and"
                    + " certificate for the TSO: " + TidemarkConfig.TSO_TLS_CERT + " and " + TidemarkConfig.TSO_TLS_KEY
                    + " (PEM), or " + TidemarkConfig.TSO_TLS_KEYSTORE);
        }
        if (clientCertificateRequired && material.trustManagers() == null) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_TLS_TRUST, "", "a PEM file of the CA"
                    + " certificates that sign client certificates, because " + TidemarkConfig.TSO_TLS_CLIENT_AUTH
                    + " is require");
        }
        if (!allowedClients.isEmpty() && !clientCertificateRequired) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS,
                    config.get(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS), "empty unless "
                            + TidemarkConfig.TSO_TLS_CLIENT_AUTH + " is require (without client certificates there"
                            + " is no subject to check)");
        }
    }

    private static Set<X500Principal> allowedClients(TidemarkConfig config) {
        return ClientPrincipals.parse(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS,
                config.get(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS), false).subjects();
    }

    /** Whether clients must speak TLS. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether clients must present a certificate signed by a trusted CA (mutual TLS). */
    public boolean clientCertificateRequired() {
        return clientCertificateRequired;
    }

    /** Client certificate subjects allowed in; empty means every client with a trusted certificate. */
    public Set<X500Principal> allowedClients() {
        return allowedClients;
    }

    /** A new server context; only when {@link #enabled()}. */
    public SslContext newContext() throws SSLException {
        if (material == null) { // only when not enabled
            throw new IllegalStateException("TLS is not enabled (" + TidemarkConfig.TSO_TLS_ENABLED + ")");
        }
        SslContextBuilder builder = SslContextBuilder.forServer(material.keyManagers())
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS)
                .clientAuth(clientCertificateRequired ? ClientAuth.REQUIRE : ClientAuth.NONE);
        if (material.trustManagers() != null) {
            builder.trustManager(material.trustManagers());
        }
        return builder.build();
    }
}
