package io.tidemark.client.tso;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tls.TlsKeys;
import io.tidemark.tls.TlsMaterial;
import org.jspecify.annotations.Nullable;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * TLS towards the TSO ({@code tidemark.client.tso.tls.*}): the TSO's certificate is verified against the configured
 * CA certificates (else the JDK's default trust store) and, unless switched off, must name the host the client
 * connects to; with a client key and certificate the client can take part in mutual TLS.
 */
public final class TsoClientTls {

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext context;
    private final boolean verifyHostname;

    private TsoClientTls(SslContext context, boolean verifyHostname) {
        this.context = context;
        this.verifyHostname = verifyHostname;
    }

    /**
     * The client's TLS from configuration, or null when {@code tidemark.client.tso.tls.enabled} is false.
     *
     * @throws InvalidConfigurationException naming the key of a missing or unreadable file
     */
    public static @Nullable TsoClientTls fromConfig(TidemarkConfig config) {
        if (!config.get(TidemarkConfig.CLIENT_TSO_TLS_ENABLED)) {
            return null;
        }
        TlsMaterial material = TlsMaterial.read(config, TlsKeys.CLIENT);
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(PROTOCOLS);
        if (material.trustManagers() != null) {
            builder.trustManager(material.trustManagers());
        }
        if (material.keyManagers() != null) {
            builder.keyManager(material.keyManagers());
        }
        try {
            return new TsoClientTls(builder.build(), config.get(TidemarkConfig.CLIENT_TSO_TLS_VERIFY_HOSTNAME));
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS towards the TSO: " + e.getMessage(), e);
        }
    }

    /** TLS with a context of the caller's (a client context), e.g. for tests and tools. */
    public static TsoClientTls of(SslContext clientContext, boolean verifyHostname) {
        if (!clientContext.isClient()) {
            throw new IllegalArgumentException("a client SSL context is needed");
        }
        return new TsoClientTls(clientContext, verifyHostname);
    }

    /** A handler for one connection to {@code target}. */
    SslHandler newHandler(ByteBufAllocator alloc, HostAndPort target, long handshakeTimeoutMillis) {
        SslHandler handler = context.newHandler(alloc, target.host(), target.port());
        if (verifyHostname) {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
        }
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }
}
