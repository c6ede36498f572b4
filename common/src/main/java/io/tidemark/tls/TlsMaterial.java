package io.tidemark.tls;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * One side's TLS material from configuration: its own key and certificate chain (PEM cert and key files, or a key
 * store) and the CA certificates it trusts (a PEM file). Every file is read once, here, so a missing or unreadable file
 * fails at start-up with an {@link InvalidConfigurationException} naming its key.
 */
public final class TlsMaterial {

    /** Password of the in-memory key store that carries PEM material to the key manager; never stored. */
    private static final char[] IN_MEMORY_PASSWORD = "tidemark".toCharArray();

    private final @Nullable KeyManagerFactory keyManagers;
    private final @Nullable TrustManagerFactory trustManagers;

    private TlsMaterial(@Nullable KeyManagerFactory keyManagers, @Nullable TrustManagerFactory trustManagers) {
        this.keyManagers = keyManagers;
        this.trustManagers = trustManagers;
    }

    /**
     * Reads the material {@code keys} name.
     *
     * @throws InvalidConfigurationException naming the key of a file that is missing, unreadable or not what it should
     *         be, or when both PEM files and a key store are configured, or only one of cert and key
     */
    public static TlsMaterial read(TidemarkConfig config, TlsKeys keys) {
        return new TlsMaterial(keyManagers(config, keys), trustManagers(config, keys));
    }

    /** The side's own key and certificate chain, or null when none is configured. */
    public @Nullable KeyManagerFactory keyManagers() {
        return keyManagers;
    }

    /** The CA certificates the side trusts, or null when none are configured (the JDK's default trust then). */
    public @Nullable TrustManagerFactory trustManagers() {
        return trustManagers;
    }

    private static @Nullable KeyManagerFactory keyManagers(TidemarkConfig config, TlsKeys keys) {
        boolean pem = config.isSet(keys.cert) || config.isSet(keys.key);
        boolean keystore = config.isSet(keys.keystore);
        if (pem && keystore) {
            throw new InvalidConfigurationException(keys.keystore, config.get(keys.keystore),
                    "no key store when " + keys.cert + " and " + keys.key + " are set: configure one or the other");
        }
        try {
            if (pem) {
                Path certFile = readableFile(config, keys.cert, "the PEM certificate chain, with " + keys.key);
                Path keyFile = readableFile(config, keys.key, "the PEM private key, with " + keys.cert);
                List<X509Certificate> chain = read(keys.cert, certFile, () -> PemFiles.certificates(certFile));
                PrivateKey key = read(keys.key, keyFile, () -> PemFiles.privateKey(keyFile));
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                store.setKeyEntry("tidemark", key, IN_MEMORY_PASSWORD, chain.toArray(new X509Certificate[0]));
                return keyManagers(store, IN_MEMORY_PASSWORD);
            }
            if (keystore) {
                Path file = readableFile(config, keys.keystore, "a PKCS#12 or JKS key store");
                char[] password = config.get(keys.keystorePassword).toCharArray();
                KeyStore store = read(keys.keystore, file, () -> KeyStore.getInstance(file.toFile(), password));
                return keyManagers(store, password);
            }
            return null;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JDK cannot build a TLS key manager: " + e.getMessage(), e);
        }
    }

    private static KeyManagerFactory keyManagers(KeyStore store, char[] password) throws GeneralSecurityException {
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory;
    }

    private static @Nullable TrustManagerFactory trustManagers(TidemarkConfig config, TlsKeys keys) {
        if (!config.isSet(keys.trust)) {
            return null;
        }
        Path file = readableFile(config, keys.trust, "a PEM file of trusted CA certificates");
        List<X509Certificate> cas = read(keys.trust, file, () -> PemFiles.certificates(file));
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JDK cannot build a TLS trust manager: " + e.getMessage(), e);
        }
    }

    private static Path readableFile(TidemarkConfig config, Setting<String> key, String what) {
        if (!config.isSet(key)) {
            throw new InvalidConfigurationException(key, "", what);
        }
        String value = config.get(key);
        Path file = Paths.get(value);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new InvalidConfigurationException(key, value, what + " (no such readable file)");
        }
        return file;
    }

    /** A reader of one file; what it throws becomes an error naming the file's key. */
    private interface FileReader<T> {
        T read() throws IOException, GeneralSecurityException;
    }

    private static <T> T read(Setting<String> key, Path file, FileReader<T> reader) {
        try {
            return reader.read();
        } catch (IOException | GeneralSecurityException e) {
            throw new InvalidConfigurationException(key, file.toString(), "a readable file of the right kind ("
                    + e.getMessage() + ")");
        }
    }
}
