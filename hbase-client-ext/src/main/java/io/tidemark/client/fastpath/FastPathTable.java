package io.tidemark.client.fastpath;

import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.FastPathUnavailableException;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;

/**
 * Single-row transactions that run inside the region server in one round trip, with no TSO contact
 * (docs/fast-path.md). The table must have the {@link TransactionalTableLayout#FAST_PATH_OBSERVER}
 * coprocessor. Every operation is a complete snapshot-isolation transaction on one row that also orders correctly
 * with the generic transactions of {@link TransactionManager} on the same table.
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

    private final Table table;
    private final TransactionManager transactions;
    private long session;

    private FastPathTable(Table table, TransactionManager transactions) {
        this.table = table;
        this.transactions = transactions;
    }

    public static Builder builder(Connection connection, TableName tableName) {
        return new Builder(connection, tableName);
    }

    public TableName getName() {
        return table.getName();
    }

    /** The paper's brc: the latest committed values of the Get's columns, skipping undecided writes. */
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
        return write(request(put, Operation.WRITE));
    }

    /** Commits the Delete (columns, families or, with no column, the whole row) as a transaction of its own. */
    public long delete(Delete delete) throws IOException {
        return write(request(delete, Operation.WRITE));
    }

    /**
     * The paper's wc: commits the Put only if the row was not written since {@code version} (from
     * {@link #getForUpdate}).
     *
     * @throws FastPathConflictException the row changed since {@code version}, or has an undecided write
     */
    public long putIfUnchanged(Put put, long version) throws IOException {
        return write(conditional(request(put, Operation.CONDITIONAL_WRITE), version));
    }

    /** Like {@link #putIfUnchanged}, for a Delete. */
    public long deleteIfUnchanged(Delete delete, long version) throws IOException {
        return write(conditional(request(delete, Operation.CONDITIONAL_WRITE), version));
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
        CellEncoding.checkUserQualifier(qualifier);
        Get request = request(mutation, Operation.CHECK_AND_MUTATE);
        request.setAttribute(FastPathProtocol.CHECK_FAMILY, family);
        request.setAttribute(FastPathProtocol.CHECK_QUALIFIER, qualifier);
        if (expected != null) {
            request.setAttribute(FastPathProtocol.CHECK_VALUE, expected);
        }
        Result answer = call(request);
        byte[] applied = answer.getValue(FastPathProtocol.META_FAMILY, FastPathProtocol.APPLIED_QUALIFIER);
        return applied != null && applied.length == 1 && applied[0] == 1;
    }

    /**
     * Adds {@code delta} to the 8-byte counter in {@code family:qualifier} (an absent column counts as 0) as a
     * transaction of its own; returns the new value.
     */
    public long increment(byte[] row, byte[] family, byte[] qualifier, long delta) throws IOException {
        CellEncoding.checkUserQualifier(qualifier);
        Get request = new Get(row).addColumn(family, qualifier);
        request.setAttribute(FastPathProtocol.OPERATION, new byte[] {Operation.INCREMENT.code()});
        request.setAttribute(FastPathProtocol.DELTA, Bytes.toBytes(delta));
        Result answer = call(request);
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

    @Override
    public void close() throws IOException {
        table.close();
    }

    private VersionedResult read(Get get, Operation op) throws IOException {
        checkGet(get);
        Get request = new Get(get);
        request.setAttribute(FastPathProtocol.OPERATION, new byte[] {op.code()});
        Result answer = call(request);
        List<Cell> user = new ArrayList<>();
        for (Cell c : answer.rawCells()) {
            if (!CellUtil.matchingFamily(c, FastPathProtocol.META_FAMILY)) {
                user.add(c);
            }
        }
        return new VersionedResult(Result.create(user), versionOf(answer));
    }

    private long write(Get request) throws IOException {
        return versionOf(call(request));
    }

    /** Sends the request, retrying with a fresh TSO timestamp while the server cannot mint a version. */
    private Result call(Get request) throws IOException {
        for (int attempt = 1; ; attempt++) {
            request.setAttribute(FastPathProtocol.SESSION, Bytes.toBytes(session));
            try {
                Result answer = table.get(request);
                advanceSession(versionOf(answer));
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
                long fresh = freshTimestamp();
                advanceSession(fresh);
                request.setAttribute(FastPathProtocol.FRESH_TIMESTAMP, Bytes.toBytes(fresh));
            }
        }
    }

    /** The generic path's timestamp source: the start timestamp of a transaction begun (and ended) for it. */
    private long freshTimestamp() throws IOException {
        Transaction tx = transactions.begin();
        transactions.rollback(tx);
        return tx.startTimestamp();
    }

    private static Get request(Mutation mutation, Operation op) throws IOException {
        checkMutation(mutation);
        Get request = new Get(mutation.getRow());
        request.setAttribute(FastPathProtocol.OPERATION, new byte[] {op.code()});
        request.setAttribute(FastPathProtocol.MUTATION, FastPathProtocol.encodeMutation(mutation));
        return request;
    }

    private static Get conditional(Get request, long version) {
        request.setAttribute(FastPathProtocol.EXPECTED_VERSION, Bytes.toBytes(version));
        return request;
    }

    private static long versionOf(Result answer) throws IOException {
        byte[] version = answer.getValue(FastPathProtocol.META_FAMILY, FastPathProtocol.VERSION_QUALIFIER);
        if (version == null) {
            throw new IOException("the region server did not answer as the fast-path coprocessor does: is "
                    + TransactionalTableLayout.FAST_PATH_OBSERVER + " attached to the table?");
        }
        return Bytes.toLong(version);
    }

    private static void checkMutation(Mutation m) {
        if (!(m instanceof Put || m instanceof Delete)) {
            throw new IllegalArgumentException("a fast-path write takes a Put or a Delete, not a "
                    + m.getClass().getSimpleName());
        }
        if (m.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
            throw new IllegalArgumentException("fast-path writes take no user timestamp: the version is minted");
        }
        for (List<Cell> cells : m.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                if (c.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                    throw new IllegalArgumentException("fast-path writes take no user timestamp: the version is"
                            + " minted");
                }
                if (c.getType() != Cell.Type.DeleteFamily) {
                    CellEncoding.checkUserQualifier(CellUtil.cloneQualifier(c));
                }
            }
        }
    }

    private static void checkGet(Get get) {
        if (!get.getTimeRange().isAllTime() || get.getFilter() != null || get.getMaxVersions() > 1) {
            throw new UnsupportedOperationException("a fast-path read returns the latest committed version of the"
                    + " requested columns: time ranges, filters and several versions are not supported");
        }
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : get.getFamilyMap().entrySet()) {
            if (f.getValue() != null) {
                for (byte[] q : f.getValue()) {
                    CellEncoding.checkUserQualifier(q);
                }
            }
        }
    }

    /** Configures a {@link FastPathTable}. */
    public static final class Builder {

        private final Connection connection;
        private final TableName tableName;
        private TransactionManager transactions;

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

        public FastPathTable build() throws IOException {
            if (transactions == null) {
                throw new IllegalStateException("a FastPathTable needs a TransactionManager (builder"
                        + ".transactionManager(tm)): it falls back to the TSO when no fast-path version can be minted");
            }
            return new FastPathTable(connection.getTable(tableName), transactions);
        }
    }
}
