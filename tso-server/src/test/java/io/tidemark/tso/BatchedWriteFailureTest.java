package io.tidemark.tso;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** {@link BatchedWriteFailureContract} on the in-memory commit table, whose failures are injected. */
class BatchedWriteFailureTest extends BatchedWriteFailureContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new TestTso.Cluster();
    }

    @Override
    protected void commitTableUnavailable(TsoCluster cluster) {
        ((TestTso.Cluster) cluster).commitTable().failNext(Integer.MAX_VALUE, InMemoryCommitTable.Fault.UNAVAILABLE);
    }

    @Override
    protected void commitTableBack(TsoCluster cluster) {
        ((TestTso.Cluster) cluster).commitTable().failNext(0, InMemoryCommitTable.Fault.UNAVAILABLE);
    }

    @Test
    void batchWhoseReplyWasLostIsRetriedAndFoundCommitted() throws Exception {
        TidemarkConfig config = TestTso.config("batched_lost_reply", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            cluster.commitTable.failNext(1, InMemoryCommitTable.Fault.REPLY_LOST);
            CommittedReply committed = assertInstanceOf(CommittedReply.class, client.commit(start, 3));
            assertEquals(committed.commitTimestamp(), cluster.commitTable.lookup(start).commitTimestamp());
        }
    }
}
