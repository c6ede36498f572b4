package io.tidemark.bench.attack;

import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.HelloReply;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One client that pipelines BEGINs as fast as it can and never reads a reply. Before backpressure existed, 10.8 million
 * of them in 20 s filled the TSO's heap with unsent replies. The attack stops when the TSO closes the connection, when
 * its duration is over, or after {@code maxBegins}.
 */
public final class UnreadReplies implements Attack {

    /** The attacker's address: another client than the normal one as far as the TSO can tell. */
    private static final String SOURCE = "127.0.0.6";

    private static final int BEGINS_PER_WRITE = 4096;

    private final long maxBegins;
    private long beginsWritten;
    private long closedAfterMillis = -1;
    private String failure;

    public UnreadReplies(long maxBegins) {
        this.maxBegins = maxBegins;
    }

    @Override
    public String name() {
        return "1 client pipelining BEGINs, never reading";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        InetSocketAddress tso = target.tso();
        byte[] batch = RawConnection.frames(new BeginRequest(1), BEGINS_PER_WRITE);
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        RawConnection connection = null;
        long started = System.nanoTime();
        try {
            connection = new RawConnection(tso, SOURCE, null, 2000);
            connection.write(RawConnection.hello());
            if (!(connection.readMessage() instanceof HelloReply)) {
                failure = "no HELLO reply";
                return;
            }
            // A blocked write cannot time out: closing the socket at the deadline ends it.
            RawConnection toClose = connection;
            watchdog.schedule(toClose::close, duration.toMillis(), TimeUnit.MILLISECONDS);
            long deadline = started + duration.toNanos();
            while (beginsWritten < maxBegins && System.nanoTime() < deadline) {
                connection.write(batch);
                beginsWritten += BEGINS_PER_WRITE;
            }
        } catch (IOException e) {
            if (System.nanoTime() - started < duration.toNanos()) {
                closedAfterMillis = (System.nanoTime() - started) / 1_000_000;
            }
        } finally {
            watchdog.shutdownNow();
            if (connection != null) {
                connection.close();
            }
        }
    }

    @Override
    public String outcome() {
        if (failure != null) {
            return failure;
        }
        return beginsWritten + " BEGINs written; " + (closedAfterMillis >= 0
                ? "the TSO closed the connection after " + closedAfterMillis + " ms"
                : "still open when the attack ended");
    }

    /** Whether the TSO closed the connection before the attack's end. */
    public boolean closedByTso() {
        return closedAfterMillis >= 0;
    }
}
