package io.tidemark.tso;

import io.tidemark.committable.CommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A TSO whose conflict map holds a single bucket, so every ninth distinct write evicts. */
class LowWatermarkTest {

    @Test
    void commitBelowLowWatermarkAbortsAndWatermarkIsPersisted() throws Exception {
        TidemarkConfig config = TestTso.config("lowwatermark", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long old = client.begin();
            long lastCommit = 0;
            for (int i = 0; i < 9; i++) {
                long start = client.begin();
                lastCommit = assertInstanceOf(CommittedReply.class, client.commit(start, 100 + i)).commitTimestamp();
            }
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.commit(old, 999));
            assertEquals(AbortReason.BELOW_LOW_WATERMARK, aborted.reason());
            assertTrue(server.metrics().counter(TsoMetrics.EVICTIONS).getCount() >= 1);
            long low = (Long) server.metrics().getGauges().get(TsoMetrics.LOW_WATERMARK).getValue();
            assertTrue(low > old && low < lastCommit, "low watermark " + low);

            long fresh = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(fresh, 999),
                    "a transaction started above the low watermark still commits");

            CommitTable commitTable = cluster.commitTable;
            long deadline = System.currentTimeMillis() + 10_000;
            while (commitTable.readLowWatermark() < low && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(commitTable.readLowWatermark() >= low, "low watermark persisted in the commit table");
        }
    }
}
