package io.tidemark.bench.attack;

import io.tidemark.protocol.AbortedReply;
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
 * Commits one-cell write sets aimed at a single bucket of the conflict map, as fast as one connection can (issue 33,
 * finding 1). Until issue 33 the map chose buckets with a public, unkeyed hash, so anyone could compute ids of one
 * bucket; every such commit evicted an entry and raised the low watermark for everybody, and at 730 commits a second
 * 224 of 225 transactions that stayed open 20 ms aborted. This attack computes its ids with that old hash.
 */
public final class LowWatermarkPush implements Attack {

    private static final String SOURCE = "127.0.0.7";
    /** The multiplier of the old bucket hash, and its inverse modulo 2^64. */
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final long INVERSE = inverse(MULTIPLIER);
    private static final long[] TABLES = {99};

    private final int bucketBits;
    private long commits;
    private long aborts;
    private String failure;

    /** @param conflictMapEntries the TSO's {@code tidemark.tso.conflict-map.entries}, which sets its buckets */
    public LowWatermarkPush(int conflictMapEntries) {
        int buckets = Integer.highestOneBit(Math.max(1, (conflictMapEntries + 7) / 8) * 2 - 1);
        this.bucketBits = Integer.numberOfTrailingZeros(buckets);
    }

    @Override
    public String name() {
        return "low-watermark push: one-cell commits aimed at one bucket";
    }

    @Override
    public void run(Target target, Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        try (RawConnection connection = new RawConnection(target.tso(), SOURCE, null, 5000)) {
            connection.write(RawConnection.hello());
            if (!(connection.readMessage() instanceof HelloReply)) {
                failure = "no HELLO reply";
                return;
            }
            for (long id = 1; System.nanoTime() < deadline; id += 2) {
                connection.write(RawConnection.frame(new BeginRequest(id)));
                BeginReply begun = (BeginReply) connection.readMessage();
                connection.write(RawConnection.frame(new CommitRequest(id + 1, begun.startTimestamp(),
                        begun.commitToken(), new long[] {idInBucketZero()}, TABLES)));
                Message reply = connection.readMessage();
                if (reply instanceof CommittedReply) {
                    commits++;
                } else if (reply instanceof AbortedReply) {
                    aborts++;
                } else {
                    failure = "the TSO answered " + reply;
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e.toString();
        }
    }

    /** A random id that the conflict map's hash before issue 33 put into bucket 0. */
    private long idInBucketZero() {
        // The old hash: h = id * MULTIPLIER; h ^= h >>> 29; bucket = low bits of h. Both steps are invertible.
        long h = ThreadLocalRandom.current().nextLong() << bucketBits;
        long mixed = h ^ (h >>> 29) ^ (h >>> 58);
        return mixed * INVERSE;
    }

    private static long inverse(long odd) {
        long inverse = odd;
        for (int i = 0; i < 6; i++) {
            inverse *= 2 - odd * inverse;
        }
        return inverse;
    }

    @Override
    public String outcome() {
        return failure != null ? failure : commits + " commits aimed at one bucket, " + aborts + " aborted";
    }
}
