package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageType;
import io.tidemark.protocol.Protocol;
import io.tidemark.writeset.ConflictLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad clients get one ERROR and a closed connection; the server keeps serving everybody else. */
class MalformedFramesTest {

    private static TsoServer server;

    @BeforeAll
    static void startServer() throws IOException {
        TidemarkConfig config = TestTso.config("malformed", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_FRAME_BYTES, "4096");
        config.set(TidemarkConfig.TSO_MAX_WRITE_SET, "200");
        // Far beyond the test client's read timeout: an answer must never wait for the handshake timeout.
        config.set(TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS, "600000");
        server = TestTso.start(config);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void malformedFramesAreRejectedAndServerKeepsServing() throws IOException {
        try (TsoTestClient bystander = TsoTestClient.connected(server.port())) {
            long start = bystander.begin();

            assertRejected(ErrorCode.MALFORMED, false, frame(new byte[] {MessageType.BEGIN.code(), 1, 2, 3}));
            assertRejected(ErrorCode.MALFORMED, true, frame(new byte[] {MessageType.BEGIN.code(), 1, 2, 3}));
            assertRejected(ErrorCode.FRAME_TOO_LARGE, true, ByteBuffer.allocate(4).putInt(1_000_000).array());
            assertRejected(ErrorCode.MALFORMED, true, ByteBuffer.allocate(4).putInt(-5).array());
            assertRejected(ErrorCode.UNEXPECTED_MESSAGE, true, frame(new byte[] {42, 0, 0}));
            assertRejected(ErrorCode.MALFORMED, true, frame(commitAnnouncingTooManyIds()));
            assertRejected(ErrorCode.FRAME_TOO_LARGE, false, "GET / HTTP/1.1\r\n\r\n".getBytes());

            assertTrue(server.metrics().counter(TsoMetrics.PROTOCOL_ERRORS).getCount() >= 7);
            assertInstanceOf(CommittedReply.class, bystander.commit(start, 77),
                    "a well-behaved client is unaffected");
        }
    }

    @Test
    void beforeHelloOnlyTinyFramesAreAccepted() throws IOException {
        // A partial frame announcing 16 MiB is refused from its length alone: nothing of it is buffered.
        assertRejected(ErrorCode.FRAME_TOO_LARGE, false, ByteBuffer.allocate(5).putInt(16 * 1024 * 1024)
                .put((byte) 1).array());
        assertRejected(ErrorCode.FRAME_TOO_LARGE, false, frame(new byte[Protocol.MAX_HELLO_FRAME_BYTES + 1]));
    }

    @Test
    void aBareLengthPrefixBeforeHelloIsAnsweredAsSoonAsItsFourBytesArrive() throws IOException {
        // Issue 33, finding 7: these waited for a fifth byte (or the handshake timeout) before.
        assertRejected(ErrorCode.FRAME_TOO_LARGE, false, ByteBuffer.allocate(4).putInt(1_000_000).array());
        assertRejected(ErrorCode.MALFORMED, false, ByteBuffer.allocate(4).putInt(0).array());
        // Four bytes that could begin a TLS record: a TLS client or an oversized frame, refused at once either way.
        assertRejected(ErrorCode.MALFORMED, false, new byte[] {22, 3, 1, 0});
    }

    @Test
    void anOlderClientIsToldToUpgrade() throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            ErrorReply error = assertInstanceOf(ErrorReply.class,
                    sendAndReceive(client, new Hello(Protocol.MAGIC, (short) (Protocol.VERSION - 1))));
            assertEquals(ErrorCode.UNSUPPORTED_VERSION, error.code());
            assertTrue(error.text().contains("upgrade the client"), error.text());
        }
    }

    @Test
    void handshakeMustComeFirstAndMatch() throws IOException {
        assertHandshakeRejected(new BeginRequest(1), ErrorCode.UNEXPECTED_MESSAGE);
        assertHandshakeRejected(new Hello(0x12345678, Protocol.VERSION), ErrorCode.UNSUPPORTED_VERSION);
        assertHandshakeRejected(new Hello(Protocol.MAGIC, (short) (Protocol.VERSION + 1)),
                ErrorCode.UNSUPPORTED_VERSION);
        assertHandshakeRejected(new HelloReply(Protocol.VERSION, CommitMode.LOW_LATENCY, ConflictLevel.CELL, 0, 1, 1),
                ErrorCode.UNEXPECTED_MESSAGE);
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            ErrorReply error = assertInstanceOf(ErrorReply.class, sendAndReceive(client, Hello.current()));
            assertEquals(ErrorCode.UNEXPECTED_MESSAGE, error.code(), "a second HELLO is refused");
            assertTrue(client.closedByServer());
        }
    }

    private static Message sendAndReceive(TsoTestClient client, Message message) throws IOException {
        client.send(message);
        return client.receive();
    }

    private static void assertHandshakeRejected(Message first, ErrorCode expected) throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            ErrorReply error = assertInstanceOf(ErrorReply.class, sendAndReceive(client, first));
            assertEquals(expected, error.code(), error.text());
            assertTrue(client.closedByServer());
        }
    }

    private static void assertRejected(ErrorCode expected, boolean afterHello, byte[] bytes) throws IOException {
        try (TsoTestClient client = afterHello ? TsoTestClient.connected(server.port())
                : TsoTestClient.connect(server.port())) {
            client.sendRaw(bytes);
            ErrorReply error = assertInstanceOf(ErrorReply.class, client.receive());
            assertEquals(expected, error.code(), error.text());
            assertTrue(client.closedByServer(), "connection closed after " + expected);
        }
    }

    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    private static byte[] commitAnnouncingTooManyIds() {
        return ByteBuffer.allocate(1 + 8 + 8 + 8 + 4 + 8).put(MessageType.COMMIT.code()).putLong(1).putLong(4096)
                .putLong(0).putInt(1000).putLong(1).array();
    }
}
