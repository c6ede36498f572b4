package io.tidemark.bench.attack;

import io.tidemark.client.tso.TsoClientTls;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.DevelopmentCertificates;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * A throw-away certificate authority and what the attacks with mutual TLS need from it: the TSO's settings (it
 * admits the subjects {@value #NORMAL} and {@value #INTRUDER}, and, by default, lets neither raise fences), the normal
 * client's TLS, and two ways in for attackers: as {@value #INTRUDER}, a client the TSO lets in, and without any
 * certificate.
 */
final class MutualTls {

    static final String NORMAL = "CN=normal-client";
    static final String INTRUDER = "CN=intruder";

    private final Map<String, String> tsoSettings = new LinkedHashMap<>();
    private final TsoClientTls normalClient;
    private final SSLSocketFactory intruder;
    private final SSLSocketFactory anonymous;

    private MutualTls(Path folder) throws IOException, GeneralSecurityException {
        DevelopmentCertificates ca = DevelopmentCertificates.createAuthority(folder, "Tidemark attacks CA");
        DevelopmentCertificates.Identity tso = ca.issue("tso", "CN=tso", "dns:localhost", "ip:127.0.0.1");
        DevelopmentCertificates.Identity normal = ca.issue("normal-client", NORMAL);
        DevelopmentCertificates.Identity intruderIdentity = ca.issue("intruder", INTRUDER);
        tsoSettings.put(TidemarkConfig.TSO_TLS_ENABLED.key(), "true");
        tsoSettings.put(TidemarkConfig.TSO_TLS_CERT.key(), tso.certificateChain().toString());
        tsoSettings.put(TidemarkConfig.TSO_TLS_KEY.key(), tso.privateKey().toString());
        tsoSettings.put(TidemarkConfig.TSO_TLS_CLIENT_AUTH.key(), "require");
        tsoSettings.put(TidemarkConfig.TSO_TLS_TRUST.key(), ca.caPem().toString());
        tsoSettings.put(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS.key(), NORMAL + ";" + INTRUDER);
        TidemarkConfig client = new TidemarkConfig(new Configuration(false));
        client.set(TidemarkConfig.CLIENT_TSO_TLS_ENABLED, "true");
        client.set(TidemarkConfig.CLIENT_TSO_TLS_TRUST, ca.caPem().toString());
        client.set(TidemarkConfig.CLIENT_TSO_TLS_CERT, normal.certificateChain().toString());
        client.set(TidemarkConfig.CLIENT_TSO_TLS_KEY, normal.privateKey().toString());
        normalClient = TsoClientTls.fromConfig(client);
        intruder = authenticatedAs(intruderIdentity.keyStore());
        anonymous = withoutCertificate();
    }

    /** Makes the certificates in {@code folder}. */
    static MutualTls create(Path folder) throws IOException {
        try {
            return new MutualTls(folder);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not set up TLS for the attacks: " + e.getMessage(), e);
        }
    }

    Map<String, String> tsoSettings() {
        return tsoSettings;
    }

    TsoClientTls normalClient() {
        return normalClient;
    }

    SSLSocketFactory intruder() {
        return intruder;
    }

    SSLSocketFactory anonymous() {
        return anonymous;
    }

    /** TLS with the key and chain of {@code keyStore}, trusting the CA it also holds. */
    private static SSLSocketFactory authenticatedAs(Path keyStore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, DevelopmentCertificates.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, DevelopmentCertificates.PASSWORD.toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context.getSocketFactory();
    }

    /** TLS without a certificate, trusting any server: an attacker does not care whom it floods. */
    private static SSLSocketFactory withoutCertificate() throws GeneralSecurityException {
        X509TrustManager anyServer = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                // Not a server.
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                // Trusts every server.
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, new TrustManager[] {anyServer}, null);
        return context.getSocketFactory();
    }
}
