package io.tidemark.client;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.GroupCommitWriter;
import io.tidemark.committable.HBaseAsyncCommitBatches;
import io.tidemark.committable.HBaseCommitTable;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * The default commit-record writer: concurrent commits of one manager share commit-table round trips, sent through
 * HBase's asynchronous client; a lone commit writes its record on its own thread ({@link GroupCommitWriter#commit}).
 */
final class GroupCommitRecordWriter implements CommitRecordWriter, AutoCloseable {

    /** Records sent in one round trip at most. */
    private static final int MAX_BATCH = 256;

    private final GroupCommitWriter writer;

    /**
     * {@code roundTrips} round trips are kept in flight at once; {@code batchSizes} is told the records of each.
     * Batches go through {@code batches}, whose asynchronous connection opens when the first one forms.
     */
    GroupCommitRecordWriter(HBaseCommitTable commitTable, HBaseAsyncCommitBatches batches, int roundTrips,
            IntConsumer batchSizes) {
        this.writer = new GroupCommitWriter(commitTable, batches, MAX_BATCH, roundTrips, batchSizes);
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        return writer.commit(record, deadline);
    }

    @Override
    public CompletableFuture<Boolean> tryCommitAsync(CommitRecord record, CommitRecordDeadline deadline) {
        return writer.tryCommit(record, deadline);
    }

    /** Writes what is queued; the batches' connection stays its owner's (the manager's). */
    @Override
    public void close() {
        writer.close();
    }
}
