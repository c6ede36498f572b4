package io.tidemark.bench.attack;

import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One connection that commits the largest transactions the TSO accepts (as many write-set and table ids as the cap it
 * announces) back to back (issue 33, finding 6): each one's conflict check holds the one event loop for milliseconds,
 * which put others' BEGIN p99 at 29 ms. A connection's work per second is now bounded.
 */
public final class MaxSizeCommits implements Attack {

    private static final String SOURCE = "127.0.0.12";

    private long commits;
    private long ids;
    private String failure;

    @Override
    public String name() {
        return "maximum-size commits back to back";
    }

    @Override
    public void run(Target target, Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        try (RawConnection connection = new RawConnection(target.tso(), SOURCE, target.authenticated(), 30_000)) {
            connection.write(RawConnection.hello());
            Message hello = connection.readMessage();
            if (!(hello instanceof HelloReply)) {
                failure = "no HELLO reply";
                return;
            }
            int most = ((HelloReply) hello).maxWriteSet();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (System.nanoTime() < deadline) {
                connection.write(RawConnection.frame(new BeginRequest(1)));
                BeginReply begun = (BeginReply) connection.readMessage();
                long[] writeSet = random.longs(most).toArray();
                long[] tables = random.longs(most).toArray();
                connection.write(RawConnection.frame(new CommitRequest(2, begun.startTimestamp(),
                        begun.commitToken(), writeSet, tables)));
                if (connection.readMessage() instanceof CommittedReply) {
                    commits++;
                    ids += 2L * most;
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e.toString();
        }
    }

    @Override
    public String outcome() {
        return commits + " commits of " + (commits == 0 ? 0 : ids / commits) + " ids"
                + (failure != null ? "; " + failure : "");
    }
}
