package io.tidemark.client;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.GroupCommitWriter;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.function.IntConsumer;

/** The default commit-record writer: concurrent commits of one manager share commit-table round trips. */
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
        try {
            return writer.tryCommit(record, deadline).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while writing " + record).initCause(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            throw new IOException("writing " + record + " failed", e.getCause());
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
