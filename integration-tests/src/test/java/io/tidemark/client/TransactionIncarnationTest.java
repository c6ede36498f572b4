package io.tidemark.client;

import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.client.tso.TsoIncarnation;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 9: {@code begin()} used to take the commit mode from whichever TSO connection was up after BEGIN. After a
 * failover to a TSO in another mode, a low-latency transaction could be labelled batched, and its reads then stopped
 * invalidating pending writers. The transaction now follows the incarnation that answered its BEGIN.
 */
class TransactionIncarnationTest {

    private static final TsoIncarnation ANSWERED = new TsoIncarnation(CommitMode.LOW_LATENCY, ConflictLevel.CELL,
            7 * Timestamps.TSO_STEP, 10_000);
    private static final TsoIncarnation REACHED_LATER = new TsoIncarnation(CommitMode.BATCHED, ConflictLevel.CELL,
            90 * Timestamps.TSO_STEP, 10_000);

    @Test
    void transactionTakesModeAndEpochFromTheIncarnationThatAnsweredItsBegin() throws Exception {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        try (TransactionManager tm = TransactionManager.builder(TestCluster.connection()).config(config)
                .tsoClient(new FailedOverAfterBegin()).build()) {
            Transaction tx = tm.begin();
            assertEquals(CommitMode.LOW_LATENCY, tx.commitMode());
            assertEquals(ANSWERED.epoch(), tx.readerContext().epoch());
            assertEquals(ConflictLevel.CELL, tx.conflictLevel());
            tm.rollback(tx);
        }
    }

    /** Answers BEGIN as one incarnation; by the time anyone asks again, a failover reached another one. */
    private static final class FailedOverAfterBegin implements TsoClient {

        @Override
        public CompletableFuture<BeginResult> begin() {
            return CompletableFuture.completedFuture(new BeginResult(8 * Timestamps.TSO_STEP, 1, ANSWERED));
        }

        @Override
        public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                      long[] tableIds) {
            throw new AssertionError("not used");
        }

        @Override
        public TsoIncarnation incarnation() {
            return REACHED_LATER;
        }

        @Override
        public String describeTarget() {
            return "a TSO that failed over";
        }

        @Override
        public void close() {
            // Nothing to release.
        }
    }
}
