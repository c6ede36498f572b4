package io.tidemark.client.fastpath;

import io.tidemark.client.ClientSettings;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.fastpath.FastPathUnavailableException;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * Single-row transactions that run inside the region server in one round trip, with no TSO contact
 * (docs/fast-path.md). The table's {@link TransactionalTableLayout#TRANSACTIONAL_OBSERVER} must provide
 * {@link TableFeature#FAST_PATH}. Every operation is a complete snapshot-isolation transaction on one row that also
 * orders correctly with the generic transactions of {@link TransactionManager} on the same table.
 *
 * <p>The table keeps a session timestamp: the largest version it has read or written. Every write is minted above
 * it, so a client's later fast-path commits always come after its earlier ones. When the server cannot mint a
 * version (the room between two TSO timestamps is used up, or the region was just opened) the table falls back to
 * the generic path once: it begins a transaction to get a fresh TSO timestamp and retries with it.
 *
 * <p>Like an HBase {@link Table}, a FastPathTable is cheap to create and meant for one thread at a time.
 */
public final class FastPathTable implements Closeable {

    /** How many fresh TSO timestamps one operation may ask for before giving up. */
    private static final int FRESH_TIMESTAMP_ATTEMPTS = 3;

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager transactions;
    private final int operationTimeoutMillis;
    /** Sends every operation's first attempt, which has the whole operation timeout. */
    private final Table table;
    private final OperationStream stream = OperationStream.take();
    private long session;

    private FastPathTable(Connection connection, TableName tableName, TransactionManager transactions,
            int operationTimeoutMillis) {
        this.connection = connection;
        this.tableName = tableName;
        this.transactions = transactions;
        this.operationTimeoutMillis = operationTimeoutMillis;
        this.table = withTimeout(operationTimeoutMillis);
    }

    public static Builder builder(Connection connection, TableName tableName) {
        return new Builder(connection, tableName);
    }

    public TableName getName() {
        return tableName;
    }

    /**
     * The paper's brc: the latest committed values of the Get's columns and the row version they are the state at.
     * Undecided writes are skipped, except those that could still commit at or below that version: the region
     * server invalidates them (their transactions then abort), as a low-latency generic reader does.
     */
    public VersionedResult get(Get get) throws IOException {
        return read(get, Operation.READ);
    }

    /**
     * The paper's br: like {@link #get}, for a following {@link #putIfUnchanged}/{@link #deleteIfUnchanged}.
     *
     * @throws FastPathConflictException the row has a write that is not decided yet; retry later
     */
    public VersionedResult getForUpdate(Get get) throws IOException {
        return read(get, Operation.READ_FOR_UPDATE);
    }

    /**
     * The paper's bwc: commits the Put as a transaction of its own; returns its commit version.
     *
     * @throws FastPathConflictException the row has a write of a generic transaction that is not decided yet
     */
    public long put(Put put) throws IOException {
        return VersionedResult.versionOf(call(write(Operation.WRITE, put)));
    }

    /** Commits the Delete (columns, families or, with no column, the whole row) as a transaction of its own. */
    public long delete(Delete delete) throws IOException {
        return VersionedResult.versionOf(call(write(Operation.WRITE, delete)));
    }

    /**
     * The paper's wc: commits the Put only if the row was not written since {@code version} (from
     * {@link #getForUpdate}).
     *
     * @throws FastPathConflictException the row changed since {@code version}, or has an undecided write
     */
    public long putIfUnchanged(Put put, long version) throws IOException {
        return VersionedResult.versionOf(call(write(Operation.CONDITIONAL_WRITE, put).expectedVersion(version)));
    }

    /** Like {@link #putIfUnchanged}, for a Delete. */
    public long deleteIfUnchanged(Delete delete, long version) throws IOException {
        return VersionedResult.versionOf(call(write(Operation.CONDITIONAL_WRITE, delete).expectedVersion(version)));
    }

    /**
     * Transactional check-and-mutate: commits {@code mutation} (a Put or Delete of the same row) only if the latest
     * committed value of {@code family:qualifier} equals {@code expected} ({@code null}: the column has no value).
     *
     * @return whether the mutation was committed
     */
    public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Mutation mutation)
            throws IOException {
        if (!Bytes.equals(row, mutation.getRow())) {
            throw new IllegalArgumentException("check-and-mutate checks row " + Bytes.toStringBinary(row)
                    + " but the mutation is for row " + Bytes.toStringBinary(mutation.getRow()));
        }
        Result answer = call(write(Operation.CHECK_AND_MUTATE, mutation).check(family, qualifier, expected));
        byte[] applied = answer.getValue(FastPathProtocol.META_FAMILY, FastPathProtocol.APPLIED_QUALIFIER);
        return applied != null && applied.length == 1 && applied[0] == 1;
    }

    /**
     * Adds {@code delta} to the 8-byte counter in {@code family:qualifier} (an absent column counts as 0) as a
     * transaction of its own; returns the new value.
     */
    public long increment(byte[] row, byte[] family, byte[] qualifier, long delta) throws IOException {
        Result answer = call(FastPathRequest.builder(Operation.INCREMENT, row).column(family, qualifier).delta(delta));
        return Bytes.toLong(answer.getValue(family, qualifier));
    }

    /** The largest version this table has read or written (0 before the first operation). */
    public long sessionTimestamp() {
        return session;
    }

    /**
     * Orders this table's later writes after {@code timestamp}, e.g. the commit timestamp of a generic transaction
     * this client committed and whose effects its next fast-path writes must follow.
     */
    public void advanceSession(long timestamp) {
        session = Math.max(session, timestamp);
    }

    /** Hands the table's stream of idempotency keys on to the next table; the HBase connection stays open. */
    @Override
    public void close() throws IOException {
        stream.giveBack();
        table.close();
    }

    private VersionedResult read(Get get, Operation op) throws IOException {
        checkGet(get);
        return VersionedResult.fromAnswer(call(FastPathRequest.builder(op, get.getRow()).columns(get.getFamilyMap())));
    }

    private static FastPathRequest.Builder write(Operation op, Mutation mutation) {
        return FastPathRequest.builder(op, mutation.getRow()).mutation(mutation);
    }

    /**
     * Sends the request, retrying with a fresh TSO timestamp while the server cannot mint a version. Every attempt
     * of a write carries the same idempotency key, and all attempts (and HBase's own re-sends of each) end within the
     * operation timeout: the region servers keep operation records long enough for that (docs/fast-path.md,
     * "Retries").
     */
    private Result call(FastPathRequest.Builder request) throws IOException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(operationTimeoutMillis);
        if (request.operation().writes()) {
            request.idempotencyKey(stream.next(start, TimeUnit.MILLISECONDS.toNanos(operationTimeoutMillis)))
                    .operationTimeoutMillis(operationTimeoutMillis);
        }
        for (int attempt = 1; ; attempt++) {
            FastPathRequest attemptRequest = request.session(session).build();
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException("fast-path " + attemptRequest.operation() + " of row "
                        + Bytes.toStringBinary(attemptRequest.row()) + " did not finish within "
                        + operationTimeoutMillis + " ms (" + TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS
                        + "); its outcome is unknown");
            }
            try {
                Result answer = send(attemptRequest.toGet(), attempt == 1, (int) left);
                advanceSession(VersionedResult.versionOf(answer));
                return answer;
            } catch (IOException e) {
                FastPathUnavailableException unavailable = FastPathErrors.find(e, FastPathUnavailableException.class);
                if (unavailable == null) {
                    FastPathConflictException conflict = FastPathErrors.find(e, FastPathConflictException.class);
                    throw conflict != null ? conflict : e;
                }
                if (attempt == FRESH_TIMESTAMP_ATTEMPTS) {
                    throw new IOException("the fast path stayed unavailable after " + attempt + " fresh TSO"
                            + " timestamps; use a generic transaction", unavailable);
                }
                // Only a timestamp obtained after this refusal tells the refusing region how far readers have read.
                long fresh = freshTimestamp();
                advanceSession(fresh);
                request.freshTimestamp(fresh, unavailable.incarnation());
            }
        }
    }

    /** A retry gets what is left of the operation timeout, so that all attempts end within it. */
    private Result send(Get get, boolean firstAttempt, int leftMillis) throws IOException {
        if (firstAttempt) {
            return table.get(get);
        }
        try (Table retry = withTimeout(leftMillis)) {
            return retry.get(get);
        }
    }

    private Table withTimeout(int timeoutMillis) {
        return connection.getTableBuilder(tableName, null).setOperationTimeout(timeoutMillis).build();
    }

    /** The generic path's timestamp source: the start timestamp of a transaction begun (and ended) for it. */
    private long freshTimestamp() throws IOException {
        Transaction tx = transactions.begin();
        long fresh = tx.startTimestamp(); // before the rollback: with lazy begin, this is when it begins
        transactions.rollback(tx);
        return fresh;
    }

    /**
     * Whether a fast-path read can answer {@code get}: it returns the latest committed version of the requested
     * columns, so a Get with a time range, a filter or more than one version cannot be.
     */
    public static boolean readsLatestVersionOnly(Get get) {
        return get.getTimeRange().isAllTime() && get.getFilter() == null && get.getMaxVersions() <= 1;
    }

    private static void checkGet(Get get) {
        if (!readsLatestVersionOnly(get)) {
            throw new UnsupportedOperationException("a fast-path read returns the latest committed version of the"
                    + " requested columns: time ranges, filters and several versions are not supported");
        }
    }

    /** Configures a {@link FastPathTable}. */
    public static final class Builder {

        private final Connection connection;
        private final TableName tableName;
        private @Nullable TransactionManager transactions;
        private @Nullable TidemarkConfig config;

        private Builder(Connection connection, TableName tableName) {
            if (connection == null || tableName == null) {
                throw new IllegalArgumentException("connection and table name must not be null");
            }
            this.connection = connection;
            this.tableName = tableName;
        }

        /** Required: where fresh TSO timestamps come from when the fast path cannot mint a version. */
        public Builder transactionManager(TransactionManager transactions) {
            this.transactions = transactions;
            return this;
        }

        /**
         * Where {@link TidemarkConfig#CLIENT_FASTPATH_OPERATION_TIMEOUT_MS} comes from; by default
         * {@link TidemarkConfig#load()}.
         */
        public Builder config(TidemarkConfig config) {
            this.config = config;
            return this;
        }

        public FastPathTable build() {
            if (transactions == null) {
                throw new IllegalStateException("a FastPathTable needs a TransactionManager (builder"
                        + ".transactionManager(tm)): it falls back to the TSO when no fast-path version can be minted");
            }
            ClientSettings settings = new ClientSettings(config != null ? config : TidemarkConfig.load());
            return new FastPathTable(connection, tableName, transactions, settings.fastPathOperationTimeoutMillis());
        }
    }
}
