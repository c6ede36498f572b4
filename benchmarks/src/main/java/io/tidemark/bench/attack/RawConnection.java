package io.tidemark.bench.attack;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageCodec;
import io.tidemark.protocol.MessageEncoder;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/** A plain blocking socket to the TSO, for attacks that must send what no real client would. */
final class RawConnection implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MS = 5000;

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final long openedNanos = System.nanoTime();

    RawConnection(InetSocketAddress tso, int readTimeoutMs) throws IOException {
        this(tso, null, null, readTimeoutMs);
    }

    /**
     * @param localAddress the address to connect from (any of 127.0.0.0/8 is loopback), or null for any
     * @param tls speaks TLS through this factory (the handshake happens here), or null for plaintext
     */
    RawConnection(InetSocketAddress tso, String localAddress, SSLSocketFactory tls, int readTimeoutMs)
            throws IOException {
        Socket plain = new Socket();
        try {
            if (localAddress != null) {
                plain.bind(new InetSocketAddress(localAddress, 0));
            }
            plain.connect(tso, CONNECT_TIMEOUT_MS);
            plain.setSoTimeout(readTimeoutMs);
            plain.setTcpNoDelay(true);
            if (tls != null) {
                SSLSocket secure = (SSLSocket) tls.createSocket(plain, tso.getHostString(), tso.getPort(), true);
                secure.startHandshake();
                socket = secure;
            } else {
                socket = plain;
            }
        } catch (IOException e) {
            plain.close();
            throw e;
        }
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** {@code message} as on the wire. */
    static byte[] frame(Message message) {
        ByteBuf buf = MessageEncoder.frame(ByteBufAllocator.DEFAULT, message);
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** {@code message} as on the wire, {@code times} over. */
    static byte[] frames(Message message, int times) {
        byte[] one = frame(message);
        byte[] all = new byte[one.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(one, 0, all, i * one.length, one.length);
        }
        return all;
    }

    static byte[] hello() {
        return frame(Hello.current());
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        out.flush();
    }

    /** The next message, or null when the TSO closed the connection or sent nothing within the read timeout. */
    Message readMessage() throws IOException {
        try {
            DataInputStream data = new DataInputStream(in);
            int length = data.readInt();
            byte[] body = new byte[length];
            data.readFully(body);
            return MessageCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            if (socket.isClosed()) {
                throw e;
            }
            return null;
        }
    }

    /** Reads and drops the next {@code count} messages; fails when the TSO closes the connection first. */
    void skipMessages(int count) throws IOException {
        DataInputStream data = new DataInputStream(in);
        for (int i = 0; i < count; i++) {
            data.skipNBytes(data.readInt());
        }
    }

    /** Whether the TSO closed the connection (end of stream or reset) within {@code waitMs}. */
    boolean closedByTso(int waitMs) {
        try {
            socket.setSoTimeout(waitMs);
            byte[] sink = new byte[4096];
            while (true) {
                int n = in.read(sink);
                if (n < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    long ageMillis() {
        return (System.nanoTime() - openedNanos) / 1_000_000;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to do about it.
        }
    }
}
