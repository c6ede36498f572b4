package io.tidemark.client;

import io.tidemark.client.fastpath.OperationStream;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.FastPathUnavailableException;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.singleregion.SingleRegionCommitDeclinedException;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.table.TableLoadingException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Commits a transaction whose writes, all still in its write buffer, fall in one region of a table with the fast path,
 * with one request to that region (docs/architecture.md, "Single-region commit"). The region either commits (at a
 * version it mints) or declines for good; on a decline the manager commits the transaction through the TSO, which
 * decides as it always did. A region opened recently refuses to mint until it gets a TSO timestamp obtained after
 * its refusal: the request is sent again, with the same idempotency key, after a BEGIN, as the fast path does. When
 * the answer is lost for good (timeouts, an unreachable region), the attempt is settled: a settle request with the
 * same key either finds the commit or makes sure it never happens.
 */
final class SingleRegionCommitter {

    /** {@link #commit}'s answer when the region declined: nothing was written and nothing will be. */
    static final long DECLINED = -1;

    private static final Logger LOG = LoggerFactory.getLogger(SingleRegionCommitter.class);
    /** How many fresh TSO timestamps one commit may ask for before it settles and commits through the TSO. */
    private static final int FRESH_TIMESTAMP_ATTEMPTS = 3;

    private final Connection connection;
    private final int operationTimeoutMillis;
    private final FreshTimestamps freshTimestamps;

    /** Where a TSO timestamp obtained now comes from (a BEGIN). */
    @FunctionalInterface
    interface FreshTimestamps {
        long next() throws IOException;
    }

    SingleRegionCommitter(Connection connection, int operationTimeoutMillis, FreshTimestamps freshTimestamps) {
        this.connection = connection;
        this.operationTimeoutMillis = operationTimeoutMillis;
        this.freshTimestamps = freshTimestamps;
    }

    /**
     * The encoded name of the one region {@code rows} of {@code table} are in (by the client's cached locations), or
     * null when they span regions.
     */
    @Nullable String regionOf(TableName table, List<Put> rows) throws IOException {
        try (RegionLocator locator = connection.getRegionLocator(table)) {
            String region = null;
            for (Put row : rows) {
                HRegionLocation location = locator.getRegionLocation(row.getRow());
                String name = location.getRegion().getEncodedName();
                if (region != null && !region.equals(name)) {
                    return null;
                }
                region = name;
            }
            return region;
        }
    }

    /**
     * Sends the commit of {@code tx}'s kept {@code rows} of {@code table}, all in {@code region}. A transaction that
     * never began (lazy begin) commits write-only, minted above {@code session}, the newest timestamp its manager
     * obtained or committed at; if it read a row before it would have begun, one of {@code rows}, only while the row
     * still has the version it was read at.
     *
     * @return the commit version, or {@link #DECLINED}
     * @throws SnapshotTooOldException the snapshot is below the region's garbage-collection horizon (nothing written)
     * @throws IOException the outcome is unknown: neither the commit nor its settling got an answer
     */
    long commit(Transaction tx, TableName table, String region, List<Put> rows, long session) throws IOException {
        OperationStream stream = OperationStream.take();
        long start = System.nanoTime();
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(operationTimeoutMillis);
        IdempotencyKey key = stream.next(start, timeoutNanos);
        // Half of the timeout for the commit's attempts, the rest for settling them: all end within one timeout.
        long commitDeadline = start + timeoutNanos / 2;
        boolean writeOnly = !tx.isBegun();
        SingleRegionCommitRequest.Builder builder = writeOnly ? SingleRegionCommitRequest.writeOnly(session, rows)
                : SingleRegionCommitRequest.commit(tx.startTimestamp(), rows);
        ReadBeforeBegin read = tx.readBeforeBegin();
        if (read != null) {
            builder.readAt(read.row(), read.version()); // a row it writes: the caller checked
        }
        SingleRegionCommitRequest request = builder.region(region).idempotencyKey(key)
                .operationTimeoutMillis(operationTimeoutMillis).build();
        SingleRegionCommitAttempt attempt = new SingleRegionCommitAttempt(table, request.anchorRow(), key,
                request.snapshot(), request.floor());
        tx.singleRegionCommitSent(attempt);
        long answer;
        try {
            answer = send(table, request, commitDeadline);
        } catch (OutcomeUnknown unknown) {
            try {
                answer = settle(attempt, start + timeoutNanos);
            } catch (IOException stillUnknown) {
                stillUnknown.addSuppressed(unknown.getCause());
                // The stream's last operation has no known outcome: it is never used again.
                throw stillUnknown;
            }
        }
        stream.giveBack();
        return answer;
    }

    /** {@link #settle(SingleRegionCommitAttempt, long)} within one operation timeout from now. */
    long settle(SingleRegionCommitAttempt attempt) throws IOException {
        return settle(attempt, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(operationTimeoutMillis));
    }

    /**
     * Ends the commit request of {@code attempt} for good: its commit version when it committed, else
     * {@link #DECLINED} (from now on it never commits).
     *
     * @throws IOException the region did not answer before {@code deadlineNanos}
     */
    long settle(SingleRegionCommitAttempt attempt, long deadlineNanos) throws IOException {
        SingleRegionCommitRequest settle = (attempt.isWriteOnly()
                ? SingleRegionCommitRequest.settleWriteOnly(attempt.floor, attempt.anchorRow)
                : SingleRegionCommitRequest.settle(attempt.snapshot, attempt.anchorRow))
                .idempotencyKey(attempt.key).operationTimeoutMillis(operationTimeoutMillis).build();
        try {
            return send(attempt.table, settle, deadlineNanos);
        } catch (OutcomeUnknown unknown) {
            throw unknown.getCause();
        }
    }

    /** Sends the request (again with a fresh timestamp while the region cannot mint); the version or DECLINED. */
    private long send(TableName table, SingleRegionCommitRequest first, long deadlineNanos)
            throws IOException, OutcomeUnknown {
        SingleRegionCommitRequest request = first;
        for (int attempt = 1; ; attempt++) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (left <= 0) {
                throw new OutcomeUnknown(new SocketTimeoutException("single-region commit of "
                        + request.transaction() + " got no answer within its time"));
            }
            try {
                return SingleRegionCommitRequest.committedVersion(call(table, request, (int) left));
            } catch (IOException e) {
                if (FastPathErrors.find(e, SingleRegionCommitDeclinedException.class) != null) {
                    return DECLINED;
                }
                SnapshotTooOldException tooOld = FastPathErrors.find(e, SnapshotTooOldException.class);
                if (tooOld != null) {
                    throw tooOld;
                }
                FastPathUnavailableException unavailable = FastPathErrors.find(e, FastPathUnavailableException.class);
                if (unavailable != null && attempt < FRESH_TIMESTAMP_ATTEMPTS && !request.isSettle()) {
                    // Only a timestamp obtained after this refusal tells the region how far readers have read.
                    request = request.toBuilder().freshTimestamp(freshTimestamps.next(), unavailable.incarnation())
                            .build();
                    continue;
                }
                if (unavailable != null) {
                    throw new OutcomeUnknown(e);
                }
                if (isDefinitiveRefusal(e)) {
                    // Refused before anything ran (bad request, table loading, an old coprocessor): nothing was
                    // written, and every attempt of the same request is refused the same way.
                    LOG.debug("single-region commit of {} refused; committing through the TSO",
                            request.transaction(), e);
                    return DECLINED;
                }
                throw new OutcomeUnknown(e);
            }
        }
    }

    /**
     * Whether every attempt of the request is refused the same way, before it could commit: a request the region
     * cannot accept, a claim it refuses, a region whose observer does not run single-region commits. Not a refusal by
     * the load guard: a load can begin between an attempt that committed (its answer lost) and HBase's re-send.
     */
    private static boolean isDefinitiveRefusal(IOException e) {
        if (FastPathErrors.find(e, TableLoadingException.class) != null) {
            return false;
        }
        return e instanceof DoNotRetryIOException || FastPathErrors.find(e, DoNotRetryIOException.class) != null
                || (e.getMessage() != null && e.getMessage().startsWith("the region server did not answer as a"
                        + " single-region commit does"));
    }

    private Result call(TableName table, SingleRegionCommitRequest request, int timeoutMillis) throws IOException {
        try (Table t = connection.getTableBuilder(table, null).setOperationTimeout(timeoutMillis).build()) {
            return t.get(request.toGet());
        }
    }

    /** The attempt's outcome is not known: the caller settles it. */
    private static final class OutcomeUnknown extends Exception {
        private static final long serialVersionUID = 1L;

        OutcomeUnknown(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized @Nullable IOException getCause() {
            return (IOException) super.getCause();
        }
    }
}
