package io.tidemark.bench.tso;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.GroupCommitWriter;
import io.tidemark.committable.HBaseAsyncCommitBatches;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.Connection;

import java.util.concurrent.CompletableFuture;

/**
 * The commit record a low-latency client writes after the TSO said COMMITTED, through the same group commit (and
 * write parallelism) a {@code TransactionManager} uses, to the commit table of {@code clientConfig}. Closing closes
 * the group commit's asynchronous HBase connection.
 */
final class ClientCommitRecords implements CommitRecordSink, AutoCloseable {

    /** Records per commit-table round trip, as in the TransactionManager's own group commit. */
    private static final int GROUP_COMMIT_BATCH = 256;

    private final HBaseAsyncCommitBatches batches;
    private final GroupCommitWriter writer;

    ClientCommitRecords(Connection connection, TidemarkConfig clientConfig) {
        CommitTableSettings settings = new CommitTableSettings(clientConfig);
        HBaseCommitTable commitTable = new HBaseCommitTable(connection, settings);
        this.batches = new HBaseAsyncCommitBatches(commitTable, connection);
        this.writer = new GroupCommitWriter(commitTable, batches, GROUP_COMMIT_BATCH, settings.writeParallelism(),
                size -> { });
    }

    @Override
    public CompletableFuture<Boolean> afterCommit(CommitRecord record) {
        return writer.tryCommit(record);
    }

    @Override
    public void close() {
        writer.close();
        batches.close();
    }
}
