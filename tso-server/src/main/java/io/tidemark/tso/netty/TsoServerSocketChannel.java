package io.tidemark.tso.netty;

import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tidemark.tso.TsoMetrics;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The TSO's listening socket, which keeps accepting when the process runs out of file descriptors. There accept()
 * fails with "Too many open files" while the connection waits in the backlog; Netty's answer is to stop accepting for a
 * second, during which no client at all gets in, and to fail again right after. This channel keeps one descriptor in
 * reserve (open on /dev/null) instead: out of descriptors, it gives the reserve up, accepts the waiting connections
 * and closes each at once (the client sees its connection closed, and retries), then takes the reserve back; if
 * another open took the freed descriptor first, the reserve is taken back at the next accept that finds descriptors
 * free. Each such connection is counted in {@code tso.connections.accept-failures} and logged once per burst.
 */
public final class TsoServerSocketChannel extends NioServerSocketChannel {

    private static final Path RESERVE = Path.of("/dev/null");
    /** Waiting connections closed per read at most, so a flood cannot keep the acceptor in one loop. */
    private static final int SHED_PER_READ = 1024;

    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private @Nullable FileChannel reserve;

    public TsoServerSocketChannel(TsoMetrics metrics, ConnectionLogs logs) {
        this.metrics = metrics;
        this.logs = logs;
        this.reserve = openReserve();
    }

    @Override
    protected int doReadMessages(List<Object> buf) throws Exception {
        if (reserve == null) {
            // Lost at the last shortage to another open (a thread of this process took the descriptor it gave up):
            // taken back as soon as descriptors are free again, or the next shortage would pause accepting.
            reserve = openReserve();
        }
        try {
            return super.doReadMessages(buf);
        } catch (IOException e) {
            FileChannel held = reserve;
            if (held == null || !isOutOfDescriptors(e)) {
                throw e;
            }
            shedWaitingConnections(held);
            return 0;
        }
    }

    private void shedWaitingConnections(FileChannel held) {
        int shed = 0;
        try {
            held.close();
            SocketChannel waiting;
            while (shed < SHED_PER_READ && (waiting = javaChannel().accept()) != null) {
                waiting.close();
                shed++;
            }
        } catch (IOException e) {
            // Another thread took the freed descriptor: what was not shed now waits for the next read.
        } finally {
            reserve = openReserve();
        }
        metrics.acceptFailures().inc(shed);
        logs.acceptFailures.warn("Out of file descriptors (Too many open files): closed " + shed + " connections as"
                + " they were accepted. Raise the open-file limit (ulimit -n, LimitNOFILE in systemd), or lower"
                + " tidemark.tso.max-connections"
                + (reserve == null ? "; the reserve descriptor could not be taken back: accepting pauses until"
                        + " descriptors are free again" : ""));
    }

    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            if (reserve != null) {
                reserve.close();
                reserve = null;
            }
        }
    }

    private static boolean isOutOfDescriptors(IOException e) {
        return String.valueOf(e.getMessage()).contains("Too many open files");
    }

    private static @Nullable FileChannel openReserve() {
        if (!Files.isReadable(RESERVE)) {
            return null;
        }
        try {
            return FileChannel.open(RESERVE);
        } catch (IOException e) {
            return null;
        }
    }
}
