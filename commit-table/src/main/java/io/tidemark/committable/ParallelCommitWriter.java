package io.tidemark.committable;

import io.tidemark.concurrent.Futures;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Writes a large batch of commit records as several concurrent round trips. A region server executes the
 * check-and-mutates of one multi-request one after the other, each with its own WAL sync; spreading a batch over
 * concurrent requests lets several handlers work at once and share WAL syncs, which is what makes batching pay.
 */
public final class ParallelCommitWriter implements AutoCloseable {

    /** Below this many records per request, splitting costs more round trips than it saves. */
    static final int MIN_CHUNK = 16;

    private final CommitTable commitTable;
    private final int parallelism;
    private final ExecutorService pool;

    public ParallelCommitWriter(CommitTable commitTable, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("commit write parallelism must be positive, was " + parallelism);
        }
        this.commitTable = commitTable;
        this.parallelism = parallelism;
        this.pool = Executors.newFixedThreadPool(Math.max(1, parallelism - 1), runnable -> {
            Thread t = new Thread(runnable, "tidemark-commit-table-writer");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@link #tryCommitAll(List, CommitRecordDeadline)} without a deadline, for tools and tests. */
    public boolean[] tryCommitAll(List<CommitRecord> records) throws IOException {
        return tryCommitAll(records, CommitRecordDeadline.NONE);
    }

    /**
     * Same contract as {@link CommitTable#tryCommitAll(List, CommitRecordDeadline)}: element i says whether record i
     * won against an invalidation; no request is sent after {@code deadline}. When any request fails, the first
     * failure is thrown; records of other requests may be durable.
     */
    public boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) throws IOException {
        int chunks = Math.max(1, Math.min(parallelism, records.size() / MIN_CHUNK));
        if (chunks == 1) {
            return commitTable.tryCommitAll(records, deadline);
        }
        int chunkSize = (records.size() + chunks - 1) / chunks;
        List<Future<boolean[]>> others = new ArrayList<>(chunks - 1);
        for (int from = chunkSize; from < records.size(); from += chunkSize) {
            List<CommitRecord> chunk = records.subList(from, Math.min(records.size(), from + chunkSize));
            others.add(pool.submit(() -> commitTable.tryCommitAll(chunk, deadline)));
        }
        boolean[] won = new boolean[records.size()];
        IOException failure = null;
        try {
            System.arraycopy(commitTable.tryCommitAll(records.subList(0, chunkSize), deadline), 0, won, 0,
                    chunkSize);
        } catch (IOException e) {
            failure = e;
        }
        int offset = chunkSize;
        for (Future<boolean[]> f : others) {
            try {
                boolean[] part = f.get();
                System.arraycopy(part, 0, won, offset, part.length);
                offset += part.length;
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = Futures.failureOf(e, "a parallel commit-record write");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while writing commit records");
            }
        }
        if (failure != null) {
            throw failure;
        }
        return won;
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
