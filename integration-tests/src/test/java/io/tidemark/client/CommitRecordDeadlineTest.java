package io.tidemark.client;

import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.ForwardingTsoClient;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-record deadline runs from the moment COMMIT is sent: a COMMITTED reply that arrives after it may no
 * longer be turned into a commit record, so the transaction settles its outcome by invalidating itself.
 */
@ExtendWith(SharedTestClusters.class)
class CommitRecordDeadlineTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final long TIMEOUT_MS = 1_000;

    @Test
    void aCommittedReplyArrivingAfterTheDeadlineAbortsWithoutACommitRecord(TestCluster cluster) throws IOException {
        TidemarkConfig shortDeadline = cluster.configWith(
                config -> config.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, String.valueOf(TIMEOUT_MS)));
        try (NettyTsoClient real = NettyTsoClient.create(shortDeadline, TestCluster.connection().getConfiguration());
             TransactionManager slowTso = cluster.managerBuilder().config(shortDeadline)
                     .tsoClient(new SlowCommitReplies(real, TIMEOUT_MS + 500)).build();
             TTable table = new TTable(TestCluster.connection(), cluster.createTransactionalTable("deadline"))) {
            byte[] row = Bytes.toBytes("late");
            Transaction tx = slowTso.begin();
            table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("never")));

            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> slowTso.commit(tx));

            assertEquals(TransactionAbortedException.Reason.COMMIT_TABLE_UNAVAILABLE, e.reason());
            assertTrue(e.getCause().getMessage().contains(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS.key()),
                    String.valueOf(e.getCause()));
            assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isInvalidated());
            assertNull(LatestSnapshot.read(cluster.tm, table.getName(), row, F, Q));
        }
    }

    /** A TSO whose COMMIT replies are delayed on the way (a slow network, a client paused by GC). */
    private static final class SlowCommitReplies extends ForwardingTsoClient {
        private final long delayMs;

        SlowCommitReplies(TsoClient delegate, long delayMs) {
            super(delegate);
            this.delayMs = delayMs;
        }

        @Override
        public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                      long[] tableIds) {
            return super.commit(startTimestamp, commitToken, writeSet, tableIds).thenApplyAsync(reply -> reply,
                    CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
        }
    }
}
