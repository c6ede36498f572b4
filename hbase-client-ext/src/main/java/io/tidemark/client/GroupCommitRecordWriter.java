package io.tidemark.client;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.GroupCommitWriter;

import java.io.IOException;
import java.util.function.IntConsumer;

/**
 * The default commit-record writer: concurrent commits of one manager share commit-table round trips; a lone commit
 * writes its record on its own thread ({@link GroupCommitWriter#commit}).
 */
final class GroupCommitRecordWriter implements CommitRecordWriter, AutoCloseable {

    /** Records sent in one round trip at most. */
    private static final int MAX_BATCH = 256;

    private final GroupCommitWriter writer;

    /**
     * {@code writerThreads} round trips are kept in flight at once; {@code batchSizes} is told the records of each.
     */
    GroupCommitRecordWriter(CommitTable commitTable, int writerThreads, IntConsumer batchSizes) {
        this.writer = new GroupCommitWriter(commitTable, MAX_BATCH, writerThreads, batchSizes);
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        return writer.commit(record, deadline);
    }

    @Override
    public void close() {
        writer.close();
    }
}
