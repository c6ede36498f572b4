package io.tidemark.client.tso;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.DevelopmentCertificates;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.MessageCodec;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.testing.TestCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: TLS and mutual TLS on the TSO port, with certificates made at run time. Three TSOs: TLS with PEM files,
 * mutual TLS with a key store and an allow-list of client subjects, and plaintext.
 */
class TsoTlsTest {

    private static final String APP_A = "CN=app-a,O=Tidemark Test";
    private static final String APP_B = "CN=app-b,O=Tidemark Test";

    @TempDir
    static Path certificates;

    private static DevelopmentCertificates ca;
    private static DevelopmentCertificates.Identity appA;
    private static DevelopmentCertificates.Identity appB;
    private static DevelopmentCertificates.Identity appC;
    private static DevelopmentCertificates.Identity stranger;
    private static DevelopmentCertificates otherCa;
    private static TsoServer tls;
    private static TsoServer mutual;
    private static TsoServer plaintext;

    @BeforeAll
    static void start() throws Exception {
        ca = DevelopmentCertificates.createAuthority(certificates.resolve("ca"), "Tidemark Test CA");
        otherCa = DevelopmentCertificates.createAuthority(certificates.resolve("other"), "Some Other CA");
        // Named only "localhost": a client connecting to 127.0.0.1 must not accept it while verifying hostnames.
        DevelopmentCertificates.Identity server = ca.issue("tso", "CN=tso,O=Tidemark Test", "dns:localhost");
        DevelopmentCertificates.Identity mutualServer = ca.issue("tso-mtls", "CN=tso-mtls,O=Tidemark Test",
                "dns:localhost", "ip:127.0.0.1");
        appA = ca.issue("app-a", APP_A);
        appB = ca.issue("app-b", APP_B);
        appC = ca.issue("app-c", "CN=app-c,O=Tidemark Test");
        stranger = otherCa.issue("stranger", APP_A);

        tls = startTso("tls", config -> {
            config.set(TidemarkConfig.TSO_TLS_ENABLED, "true");
            config.set(TidemarkConfig.TSO_TLS_CERT, server.certificateChain().toString());
            config.set(TidemarkConfig.TSO_TLS_KEY, server.privateKey().toString());
        });
        mutual = startTso("mtls", config -> {
            config.set(TidemarkConfig.TSO_TLS_ENABLED, "true");
            config.set(TidemarkConfig.TSO_TLS_KEYSTORE, mutualServer.keyStore().toString());
            config.set(TidemarkConfig.TSO_TLS_KEYSTORE_PASSWORD, DevelopmentCertificates.PASSWORD);
            config.set(TidemarkConfig.TSO_TLS_CLIENT_AUTH, "require");
            config.set(TidemarkConfig.TSO_TLS_TRUST, ca.caPem().toString());
            config.set(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS, APP_A + "; " + APP_B);
        });
        plaintext = startTso("plain", config -> { });
    }

    private static TsoServer startTso(String name, Consumer<TidemarkConfig> settings) throws Exception {
        TidemarkConfig config = TestCluster.config("tls_" + name, CommitMode.LOW_LATENCY);
        settings.accept(config);
        return TestCluster.startTso(config);
    }

    @AfterAll
    static void stop() {
        for (TsoServer server : new TsoServer[] {tls, mutual, plaintext}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void aTlsClientBeginsAndCommits() throws Exception {
        try (NettyTsoClient client = client("localhost", tls, config -> trust(config, ca))) {
            commitOne(client);
        }
    }

    @Test
    void hostnameVerificationRefusesACertificateThatDoesNotNameTheHost() throws Exception {
        try (NettyTsoClient client = client("127.0.0.1", tls, config -> trust(config, ca))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, client::incarnation);
            assertTrue(e.getMessage().contains("TLS with the TSO at 127.0.0.1:" + tls.port() + " failed"),
                    e.getMessage());
            assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_TSO_TLS_VERIFY_HOSTNAME.key()), e.getMessage());
        }
        try (NettyTsoClient client = client("127.0.0.1", tls, config -> {
            trust(config, ca);
            config.set(TidemarkConfig.CLIENT_TSO_TLS_VERIFY_HOSTNAME, "false");
        })) {
            commitOne(client);
        }
    }

    @Test
    void aCertificateFromAnUntrustedCaIsRefused() throws Exception {
        try (NettyTsoClient client = client("localhost", tls, config -> trust(config, otherCa))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, client::incarnation);
            assertTrue(e.getMessage().contains("failed") && e.getMessage()
                    .contains(TidemarkConfig.CLIENT_TSO_TLS_TRUST.key()), e.getMessage());
        }
    }

    @Test
    void aPlaintextClientIsRefusedAndToldWhichSettingToChange() throws Exception {
        // The client's side: an exception naming the setting.
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "localhost:" + tls.port());
        try (NettyTsoClient client = NettyTsoClient.create(config, new Configuration(false))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, client::incarnation);
            assertEquals(ErrorCode.TLS_REQUIRED, e.serverErrorCode());
            assertTrue(e.getMessage().contains("requires TLS"), e.getMessage());
            assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=true"), e.getMessage());
        }
        // On the wire: a plaintext ERROR any client can read (the TSO also logs the refusal, once per burst).
        try (Socket socket = new Socket("127.0.0.1", tls.port())) {
            socket.setSoTimeout(20_000);
            var hello = MessageEncoder.frame(ByteBufAllocator.DEFAULT, Hello.current());
            byte[] bytes = new byte[hello.readableBytes()];
            hello.readBytes(bytes).release();
            socket.getOutputStream().write(bytes);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            ErrorReply error = assertInstanceOf(ErrorReply.class, MessageCodec.decode(Unpooled.wrappedBuffer(body)));
            assertEquals(ErrorCode.TLS_REQUIRED, error.code());
            assertTrue(error.text().contains(TidemarkConfig.CLIENT_TSO_TLS_ENABLED.key()), error.text());
            assertEquals(-1, in.read(), "the TSO closed the connection");
        }
    }

    @Test
    void aTlsClientOfAPlaintextTsoIsToldItDoesNotSpeakTls() throws Exception {
        try (NettyTsoClient client = client("localhost", plaintext, config -> trust(config, ca))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, client::incarnation);
            assertTrue(e.getMessage().contains("answered in plaintext: it does not use TLS"), e.getMessage());
        }
    }

    @Test
    void mutualTlsAdmitsAllowedClientsOnly() throws Exception {
        try (NettyTsoClient client = client("localhost", mutual, config -> identity(config, appA))) {
            commitOne(client);
        }
        try (NettyTsoClient withoutCertificate = client("localhost", mutual, config -> trust(config, ca))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, withoutCertificate::incarnation);
            assertTrue(e.getMessage().contains("TLS with"), e.getMessage());
        }
        try (NettyTsoClient notAllowed = client("localhost", mutual, config -> identity(config, appC))) {
            TsoUnavailableException e = assertThrows(TsoUnavailableException.class, notAllowed::incarnation);
            assertEquals(ErrorCode.NOT_AUTHORIZED, e.serverErrorCode());
            assertTrue(e.getMessage().contains("CN=app-c") && e.getMessage()
                    .contains(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS.key()), e.getMessage());
        }
        try (NettyTsoClient untrusted = client("localhost", mutual, config -> identity(config, stranger))) {
            assertThrows(TsoUnavailableException.class, untrusted::incarnation,
                    "the subject is allowed, but the certificate comes from a CA the TSO does not trust");
        }
    }

    @Test
    void withMutualTlsACommitTokenIsGoodOnlyForTheClientItWasIssuedTo() throws Exception {
        try (NettyTsoClient a = client("localhost", mutual, config -> identity(config, appA));
             NettyTsoClient b = client("localhost", mutual, config -> identity(config, appB))) {
            BeginResult begunByA = a.begin().get(20, TimeUnit.SECONDS);
            ExecutionException refused = assertThrows(ExecutionException.class, () -> b.commit(
                    begunByA.startTimestamp(), begunByA.commitToken(), new long[] {1}, new long[] {1})
                    .get(20, TimeUnit.SECONDS));
            assertEquals(ErrorCode.NOT_AUTHORIZED,
                    assertInstanceOf(TsoUnavailableException.class, refused.getCause()).serverErrorCode());
            assertTrue(a.commit(begunByA.startTimestamp(), begunByA.commitToken(), new long[] {1}, new long[] {1})
                    .get(20, TimeUnit.SECONDS).isCommitted(), "the owner still commits");
        }
    }

    private static void commitOne(NettyTsoClient client) throws Exception {
        BeginResult begun = client.begin().get(20, TimeUnit.SECONDS);
        CommitResult result = client.commit(begun.startTimestamp(), begun.commitToken(), new long[] {7},
                new long[] {1}).get(20, TimeUnit.SECONDS);
        assertTrue(result.isCommitted(), result.toString());
    }

    private static NettyTsoClient client(String host, TsoServer server, Consumer<TidemarkConfig> tlsSettings) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, new HostAndPort(host, server.port()).toString());
        config.set(TidemarkConfig.CLIENT_TSO_TLS_ENABLED, "true");
        config.set(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS, Long.toString(Duration.ofSeconds(10).toMillis()));
        tlsSettings.accept(config);
        return NettyTsoClient.create(config, new Configuration(false));
    }

    private static void trust(TidemarkConfig config, DevelopmentCertificates authority) {
        config.set(TidemarkConfig.CLIENT_TSO_TLS_TRUST, authority.caPem().toString());
    }

    private static void identity(TidemarkConfig config, DevelopmentCertificates.Identity identity) {
        trust(config, ca);
        config.set(TidemarkConfig.CLIENT_TSO_TLS_CERT, identity.certificateChain().toString());
        config.set(TidemarkConfig.CLIENT_TSO_TLS_KEY, identity.privateKey().toString());
    }
}
