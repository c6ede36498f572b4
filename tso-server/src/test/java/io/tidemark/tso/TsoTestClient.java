package io.tidemark.tso;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageCodec;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A blocking TSO client over a plain socket, using the shared codec: enough to drive the server in tests. The commit
 * tokens its BEGINs receive are kept for the whole JVM, so that a test may commit a transaction begun on another
 * connection, as one application with several connections (or after a reconnect) does.
 */
final class TsoTestClient implements AutoCloseable {

    private static final int READ_TIMEOUT_MS = 20_000;
    private static final Map<Long, Long> TOKENS = new ConcurrentHashMap<>();

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private long nextRequestId = 1;

    private TsoTestClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** A connection that has not said HELLO yet. */
    static TsoTestClient connect(int port) throws IOException {
        return new TsoTestClient(new Socket("127.0.0.1", port));
    }

    /** A connection from {@code localAddress} (say 127.0.0.2: 127.0.0.0/8 is loopback) that has not said HELLO. */
    static TsoTestClient connectFrom(String localAddress, int port) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(localAddress, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        return new TsoTestClient(socket);
    }

    /** A connection past the handshake. */
    static TsoTestClient connected(int port) throws IOException {
        TsoTestClient client = connect(port);
        client.hello();
        return client;
    }

    HelloReply hello() throws IOException {
        send(Hello.current());
        return (HelloReply) receive();
    }

    long begin() throws IOException {
        long id = nextRequestId();
        send(new BeginRequest(id));
        Message reply = receive();
        if (!(reply instanceof BeginReply) || ((BeginReply) reply).requestId() != id) {
            throw new AssertionError("expected BeginReply for request " + id + ", got " + reply);
        }
        BeginReply begun = (BeginReply) reply;
        TOKENS.put(begun.startTimestamp(), begun.commitToken());
        return begun.startTimestamp();
    }

    /** The token a test client of this JVM was handed with {@code start}; 0 when none was. */
    static long tokenOf(long start) {
        return TOKENS.getOrDefault(start, 0L);
    }

    /** Sends a COMMIT and returns the reply. */
    Message commit(long start, long... writeSet) throws IOException {
        send(commitRequest(start, writeSet));
        return receive();
    }

    /** A COMMIT with the token this JVM's test clients were handed with {@code start}. */
    CommitRequest commitRequest(long start, long... writeSet) {
        return commitRequestWithToken(start, tokenOf(start), writeSet);
    }

    CommitRequest commitRequestWithToken(long start, long token, long... writeSet) {
        return new CommitRequest(nextRequestId(), start, token, writeSet, new long[] {7});
    }

    /** A COMMIT with the given write set and table ids (either may be empty), with {@code start}'s token. */
    CommitRequest commitRequestWithTables(long start, long[] writeSet, long... tableIds) {
        return new CommitRequest(nextRequestId(), start, tokenOf(start), writeSet, tableIds);
    }

    /** Sends {@code request} and returns the reply. */
    Message exchange(CommitRequest request) throws IOException {
        send(request);
        return receive();
    }

    long nextRequestId() {
        return nextRequestId++;
    }

    void send(Message message) throws IOException {
        sendRaw(frame(message));
    }

    /** {@code message} as it travels on the wire: length prefix, then body. */
    static byte[] frame(Message message) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(0);
        MessageCodec.encode(message, buf);
        buf.setInt(0, buf.readableBytes() - 4);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Message receive() throws IOException {
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        return MessageCodec.decode(Unpooled.wrappedBuffer(body));
    }

    /** Bytes received and not read yet (0 when the server has sent nothing more). */
    int bytesWaiting() throws IOException {
        return in.available();
    }

    /** Whether the server closed the connection (end of stream or reset) before the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (EOFException | SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    /** Whether the server closed the connection within {@code millis}. */
    boolean closedByServerWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return closedByServer();
        } finally {
            socket.setSoTimeout(READ_TIMEOUT_MS);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
