package io.tidemark.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority for TLS on the TSO port in tests and benchmarks, made at run time with the JDK's
 * own {@code keytool} (no extra library): a CA, and certificates it signs for the TSO and for clients, each as PEM
 * files (certificate chain, unencrypted PKCS#8 key) and as a PKCS#12 key store. Never for production: keys are
 * short-lived (two days) and the password is public.
 */
public final class DevelopmentCertificates {

    /** Password of every key store made here. */
    public static final String PASSWORD = "tidemark-dev";

    private static final String CA_ALIAS = "ca";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;
    private static final List<String> KEYTOOL_JVM_FLAGS = List.of("-J-XX:TieredStopAtLevel=1",
            "-J-XX:+UseSerialGC");

    private final Path directory;
    private final Path caKeyStore;
    private final Path caPem;

    private DevelopmentCertificates(Path directory) {
        this.directory = directory;
        this.caKeyStore = directory.resolve("ca.p12");
        this.caPem = directory.resolve("ca.pem");
    }

    /** A new CA, kept in {@code directory} (created when missing), named {@code CN=<caName>}. */
    public static DevelopmentCertificates createAuthority(Path directory, String caName) throws IOException {
        Files.createDirectories(directory);
        DevelopmentCertificates ca = new DevelopmentCertificates(directory);
        ca.keytool("-genkeypair", "-alias", CA_ALIAS, "-dname", "CN=" + caName, "-keyalg", "EC", "-groupname",
                "secp256r1", "-validity", "2", "-ext", "bc:c", "-keystore", ca.caKeyStore.toString(), "-storetype",
                "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        ca.keytool("-exportcert", "-rfc", "-alias", CA_ALIAS, "-keystore", ca.caKeyStore.toString(), "-storepass",
                PASSWORD, "-file", ca.caPem.toString());
        return ca;
    }

    /** The CA's certificate, PEM: what servers and clients trust. */
    public Path caPem() {
        return caPem;
    }

    /**
     * A key and a certificate signed by this CA.
     *
     * @param name file name stem ({@code <name>.pem}, {@code <name>-key.pem}, {@code <name>.p12})
     * @param subject distinguished name, e.g. {@code CN=app1,O=Example}
     * @param alternativeNames subject alternative names in keytool's form, e.g. {@code dns:localhost},
     *        {@code ip:127.0.0.1} (hostname verification checks these); none for a client
     */
    public Identity issue(String name, String subject, String... alternativeNames)
            throws IOException {
        Path keyStore = directory.resolve(name + ".p12");
        Path request = directory.resolve(name + ".csr");
        Path signed = directory.resolve(name + ".crt");
        keytool("-genkeypair", "-alias", name, "-dname", subject, "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        keytool("-certreq", "-alias", name, "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-file",
                request.toString());
        List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", CA_ALIAS, "-keystore",
                caKeyStore.toString(), "-storepass", PASSWORD, "-infile", request.toString(), "-outfile",
                signed.toString(), "-rfc", "-validity", "2", "-ext", "ku:c=digitalSignature,keyAgreement", "-ext",
                "eku=serverAuth,clientAuth"));
        if (alternativeNames.length > 0) {
            sign.add("-ext");
            sign.add("san=" + String.join(",", alternativeNames));
        }
        keytool(sign.toArray(new String[0]));
        keytool("-importcert", "-noprompt", "-alias", CA_ALIAS, "-file", caPem.toString(), "-keystore",
                keyStore.toString(), "-storepass", PASSWORD);
        keytool("-importcert", "-alias", name, "-file", signed.toString(), "-keystore", keyStore.toString(),
                "-storepass", PASSWORD);
        Path chainPem = directory.resolve(name + ".pem");
        Path keyPem = directory.resolve(name + "-key.pem");
        writePem(keyStore, name, chainPem, keyPem);
        Files.deleteIfExists(request);
        Files.deleteIfExists(signed);
        return new Identity(chainPem, keyPem, keyStore, subject);
    }

    /** What {@link #issue} made. */
    public static final class Identity {
        private final Path certificateChain;
        private final Path privateKey;
        private final Path keyStore;
        private final String subject;

        Identity(Path certificateChain, Path privateKey, Path keyStore, String subject) {
            this.certificateChain = certificateChain;
            this.privateKey = privateKey;
            this.keyStore = keyStore;
            this.subject = subject;
        }

        /** PEM: the certificate, then the CA's. */
        public Path certificateChain() {
            return certificateChain;
        }

        /** PEM: the unencrypted PKCS#8 private key. */
        public Path privateKey() {
            return privateKey;
        }

        /** PKCS#12 with the key and chain, password {@link #PASSWORD}. */
        public Path keyStore() {
            return keyStore;
        }

        public String subject() {
            return subject;
        }
    }

    /** keytool cannot write a private key as PEM; the key store can be read here and the key written as PKCS#8. */
    private static void writePem(Path keyStore, String alias, Path chainPem, Path keyPem) throws IOException {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            Key key = store.getKey(alias, PASSWORD.toCharArray());
            StringBuilder chain = new StringBuilder();
            for (Certificate certificate : store.getCertificateChain(alias)) {
                chain.append(pem("CERTIFICATE", certificate.getEncoded()));
            }
            Files.writeString(chainPem, chain, StandardCharsets.US_ASCII);
            Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not read the key store " + keyStore + ": " + e.getMessage(), e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // A keytool run is a JVM that lives for a second: without the optimizing compiler and with the serial
        // collector it starts in about half the time, and an authority with a few identities takes dozens of runs.
        command.addAll(KEYTOOL_JVM_FLAGS);
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool did not finish: " + String.join(" ", args));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }
}
