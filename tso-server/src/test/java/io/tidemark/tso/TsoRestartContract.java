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

/**
 * A second TSO incarnation of the same cluster never reuses timestamps, refuses older transactions and leaves the GC
 * horizon alone. Run in memory ({@link RestartTest}) and on HBase ({@code TsoRestartOnHBaseTest}).
 */
abstract class TsoRestartContract {

    /** The shared parts the TSOs configured by {@code config} run on; each call a cluster of its own. */
    protected abstract TsoCluster cluster(TidemarkConfig config) throws Exception;


    @Test
    void newTimestampsExceedAllOldOnesAfterRestart() throws Exception {
        TidemarkConfig config = TestTso.config("restart_ts", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        long lastOld = 0;
        long firstEpoch;
        try (TsoServer first = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            firstEpoch = first.epoch();
            // More than one block (100 timestamps), so the first TSO extends its bound while serving.
            for (int i = 0; i < 250; i++) {
                lastOld = client.begin();
            }
        }
        try (TsoServer second = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            assertTrue(second.epoch() >= lastOld, "epoch " + second.epoch() + " below old timestamp " + lastOld);
            assertTrue(second.epoch() > firstEpoch);
            assertTrue(client.begin() > lastOld);
        }
    }

    @Test
    void transactionBegunBeforeRestartCannotCommit() throws Exception {
        TidemarkConfig config = TestTso.config("restart_epoch", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        long oldStart;
        try (TsoServer first = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            oldStart = client.begin();
        }
        try (TsoServer second = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.commit(oldStart, 1));
            assertEquals(AbortReason.STALE_EPOCH, aborted.reason());
            assertInstanceOf(CommittedReply.class, client.commit(client.begin(), 1));
        }
    }

    /**
     * Issue 8 item 5: a restart used to raise the persisted low watermark (the compaction GC horizon) to the new
     * epoch, making every running read-only snapshot too old at once.
     */
    @Test
    void restartDoesNotRaiseThePersistedLowWatermark() throws Exception {
        TidemarkConfig config = TestTso.config("restart_lwm", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        CommitTable commitTable = cluster.commitTable();
        try (TsoServer first = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            for (int i = 0; i < 150; i++) {
                client.begin();
            }
        }
        long persisted = commitTable.readLowWatermark();
        try (TsoServer second = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            assertTrue(second.epoch() > persisted);
            client.commit(client.begin(), 5);
            // Several persist intervals (50 ms each) pass.
            Thread.sleep(500);
            assertEquals(persisted, commitTable.readLowWatermark(), "the restart moved the GC horizon");
            assertEquals(persisted, second.metrics().getGauges().get(TsoMetrics.LOW_WATERMARK).getValue());
        }
    }
}
