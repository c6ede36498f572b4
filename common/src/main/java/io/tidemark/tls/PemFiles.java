package io.tidemark.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Reads PEM files: certificates, and unencrypted PKCS#8 private keys. */
final class PemFiles {

    private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String KEY_END = "-----END PRIVATE KEY-----";
    /** Key algorithms tried in turn: PKCS#8 names the algorithm, but the JDK needs it to pick a key factory. */
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448", "DSA"};

    private PemFiles() {
    }

    /** Every certificate in the file, in file order; at least one. */
    static List<X509Certificate> certificates(Path file) throws IOException, GeneralSecurityException {
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) c);
            }
        }
        if (certificates.isEmpty()) {
            throw new GeneralSecurityException("no certificate (-----BEGIN CERTIFICATE-----) in the file");
        }
        return certificates;
    }

    /** The PKCS#8 private key of the file ({@value #KEY_BEGIN}). */
    static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        int begin = text.indexOf(KEY_BEGIN);
        int end = text.indexOf(KEY_END);
        if (begin < 0 || end < begin) {
            String found = text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE")
                    ? " It holds a key in the older PKCS#1/SEC1 form: convert it with"
                            + " 'openssl pkcs8 -topk8 -nocrypt -in old.pem -out key.pem'."
                    : text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
                            ? " It holds an encrypted key: use a key store with a password instead, or decrypt it"
                                    + " with 'openssl pkcs8 -in encrypted.pem -out key.pem' and protect the file."
                            : "";
            throw new GeneralSecurityException("no unencrypted PKCS#8 private key (" + KEY_BEGIN + ") in the file."
                    + found);
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end));
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException notThisAlgorithm) {
                // Try the next one.
            }
        }
        throw new GeneralSecurityException("the private key is not an RSA, EC, EdDSA or DSA key this JDK can read");
    }
}
