package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Issue 33, finding 1: a client committed one-cell write sets chosen to land in one bucket of the conflict map, so
 * every commit evicted an entry and raised the low watermark, and everybody else's transactions aborted with
 * BELOW_LOW_WATERMARK. The attacker here computes buckets as anyone could before the fix: with the map's public,
 * unkeyed hash of that time.
 */
@Timeout(60)
class LowWatermarkPushTest {

    private static final int ENTRIES = 65_536;
    private static final int ATTACK_COMMITS = 300;

    @Test
    void commitsAimedAtOneBucketAbortNobodyElseNorMoveThePersistedWatermark() throws Exception {
        TidemarkConfig config = TestTso.config("lwm_push", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, Integer.toString(ENTRIES));
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(config);
             TsoTestClient honest = TsoTestClient.connected(server.port());
             TsoTestClient attacker = TsoTestClient.connected(server.port())) {
            long running = honest.begin();
            long id = 0;
            for (int i = 0; i < ATTACK_COMMITS; i++) {
                id = nextIdInBucketZero(id + 1);
                assertInstanceOf(CommittedReply.class, attacker.commit(attacker.begin(), id));
            }

            assertInstanceOf(CommittedReply.class, honest.commit(running, 424_242),
                    "the honest transaction begun before the attack commits");
            TimeUnit.MILLISECONDS.sleep(10 * 50);
            assertEquals(0, cluster.commitTable.readLowWatermark(),
                    "the persisted low watermark, the compaction horizon, did not move");
            assertEquals(0L, server.metrics().getGauges().get(TsoMetrics.LOW_WATERMARK).getValue());
        }
    }

    /** The next id from {@code from} that the conflict map's hash before issue 33 put into bucket 0. */
    private static long nextIdInBucketZero(long from) {
        int bucketMask = ENTRIES / 8 - 1;
        for (long id = from; ; id++) {
            long h = id * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
            if (((int) h & bucketMask) == 0) {
                return id;
            }
        }
    }
}
