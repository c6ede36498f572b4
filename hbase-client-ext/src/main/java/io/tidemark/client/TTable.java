package io.tidemark.client;

import io.tidemark.visibility.Conversion;
import io.tidemark.visibility.ReaderContext;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Transactional access to one HBase table: every operation takes the {@link Transaction} it belongs to. Writes become
 * tentative versions, kept by the transaction until it commits, or until a read of the transaction could see them
 * (then they are sent first), or until they pass {@code tidemark.client.write-buffer-bytes}; reads see the
 * transaction's snapshot plus its own writes. A write HBase refuses (a missing family, say) therefore fails the
 * commit, which aborts with {@link TransactionAbortedException.Reason#WRITE_FAILED}, rather than the put. With no
 * write buffer the put fails, and the commit still aborts the same way: the refused write may have reached some of its
 * rows, and the transaction must not commit without the rest. Like an HBase {@link Table}, a TTable is cheap to create
 * and not meant to be shared between threads.
 *
 * <p>When the table has the Tidemark snapshot coprocessor (see {@code TidemarkAdmin}), reads are resolved by the
 * region servers and may carry Filters, which then see only snapshot-visible cells; otherwise reads are resolved
 * here and Filters are refused. Increment, Append, checkAndMutate and RowMutations read the snapshot and write
 * tentative versions like puts, so conflict detection covers them (see {@link #increment}). Not supported (refused
 * with an exception that says so): user timestamps and time ranges, {@code Scan.setBatch}, partial results and
 * reading more than one version.
 *
 * <p>A table converted in place ({@code ./tidemark table enable} on a table that held data) refuses writes of
 * transactions that began before its conversion with {@link TableConvertedAfterStartException}; the cells it held
 * before are read as committed.
 *
 * <p>A read whose snapshot is older than what compaction kept is refused by the region server; the transaction is
 * then rolled back and the read throws {@link TransactionAbortedException} with reason
 * {@link TransactionAbortedException.Reason#SNAPSHOT_TOO_OLD}.
 */
public final class TTable implements Closeable {

    private final TableName tableName;
    private final Table table;
    private volatile TransactionalTableCheck.@Nullable CheckedTable checked;

    public TTable(Connection connection, TableName tableName) throws IOException {
        this(connection.getTable(tableName));
    }

    /** Over an HBase table of the caller's, which this TTable closes when it is closed. */
    TTable(Table table) {
        this.tableName = table.getName();
        this.table = table;
    }

    public TableName getName() {
        return tableName;
    }

    public void put(Transaction tx, Put put) throws IOException {
        put(tx, Collections.singletonList(put));
    }

    public void put(Transaction tx, List<Put> puts) throws IOException {
        put(tx, puts, true);
    }

    /**
     * Writes like {@link #put(Transaction, List)}, but the columns are left out of conflict detection: they commit
     * or roll back with the transaction, yet never make it or another transaction abort. Meant for data no two
     * transactions can write differently, such as secondary-index entries derived from conflict-checked columns; when
     * two committed transactions did write one column conflict-free, readers see the value of the one that started
     * later. A column the transaction also writes with an ordinary put is conflict-checked.
     */
    public void putConflictFree(Transaction tx, List<Put> puts) throws IOException {
        put(tx, puts, false);
    }

    private void put(Transaction tx, List<Put> puts, boolean conflictChecked) throws IOException {
        TentativeWriter writer = writer(tx, "write", conflictChecked);
        try {
            writer.put(puts);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    /**
     * Deletes columns ({@code addColumn}/{@code addColumns}), families ({@code addFamily}: every column the snapshot
     * shows in it) or, with no column given, the whole row as the snapshot shows it.
     */
    public void delete(Transaction tx, Delete delete) throws IOException {
        delete(tx, Collections.singletonList(delete));
    }

    public void delete(Transaction tx, List<Delete> deletes) throws IOException {
        delete(tx, deletes, true);
    }

    /** Deletes like {@link #delete(Transaction, List)}, left out of conflict detection as {@link #putConflictFree}. */
    public void deleteConflictFree(Transaction tx, List<Delete> deletes) throws IOException {
        delete(tx, deletes, false);
    }

    private void delete(Transaction tx, List<Delete> deletes, boolean conflictChecked) throws IOException {
        tx.beginIfNotBegun(); // a row or family delete reads what it covers
        TentativeWriter writer = writer(tx, "delete", conflictChecked);
        try {
            writer.delete(deletes);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    /**
     * Reads the snapshot (plus this transaction's writes). The first read of a transaction begun lazily
     * ({@code tidemark.client.lazy-begin}) that has written nothing yet, of a table with the fast path, is the row's
     * latest committed state, read by its region with no BEGIN (docs/architecture.md, "Read-modify-write without a
     * BEGIN"); if the row changes before the transaction commits in that region or begins, it aborts with
     * {@link TransactionAbortedException.Reason#READ_CHANGED}.
     */
    public Result get(Transaction tx, Get get) throws IOException {
        try {
            Result beforeBegin = readBeforeBegin(tx, get);
            if (beforeBegin != null) {
                return beforeBegin;
            }
            if (serverSide(tx, "read")) {
                return new ServerSideSnapshotReads(tx, tx.readerContext(), table).get(get);
            }
            return reader(tx, "read").get(get);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    public Result[] get(Transaction tx, List<Get> gets) throws IOException {
        try {
            if (serverSide(tx, "read")) {
                return new ServerSideSnapshotReads(tx, tx.readerContext(), table).get(gets);
            }
            return reader(tx, "read").get(gets);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    public boolean exists(Transaction tx, Get get) throws IOException {
        try {
            if (serverSide(tx, "read")) {
                return new ServerSideSnapshotReads(tx, tx.readerContext(), table).exists(get);
            }
            return reader(tx, "read").exists(get);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    /** Whether each Get finds anything, all in one multi-get. */
    public boolean[] exists(Transaction tx, List<Get> gets) throws IOException {
        List<Get> checks = new ArrayList<>(gets.size());
        for (Get g : gets) {
            checks.add(new Get(g).setCheckExistenceOnly(true));
        }
        Result[] answers = get(tx, checks);
        boolean[] found = new boolean[answers.length];
        for (int i = 0; i < answers.length; i++) {
            found[i] = answers[i].getExists();
        }
        return found;
    }

    /** A scanner of the snapshot; {@code next()} throws {@link TransactionAbortedException} as the reads above do. */
    public ResultScanner getScanner(Transaction tx, Scan scan) throws IOException {
        try {
            if (serverSide(tx, "scan")) {
                return new ServerSideSnapshotReads(tx, tx.readerContext(), table).getScanner(scan);
            }
            SnapshotReader reader = reader(tx, "scan");
            tx.sendWritesBeforeRead(tableName, scan);
            Scan stored = SnapshotQueries.snapshotScan(scan, reader.readerContext());
            return new SnapshotScanner(tx, table.getScanner(stored), reader, scan.getLimit(), scan.getMaxVersions());
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    /**
     * Adds the amounts to their columns as the snapshot (plus this transaction's writes) shows them, an absent column
     * counting as 0, and writes the sums as tentative versions. The columns enter the write set: of two transactions
     * incrementing one column concurrently, the later committer aborts with a conflict, so no increment is lost.
     * Returns the new values unless {@code setReturnResults(false)}; a column holding other than 8 bytes is refused.
     */
    public Result increment(Transaction tx, Increment increment) throws IOException {
        return readModifyWrite(tx).increment(increment);
    }

    /** Like {@link #increment}, appending bytes to the columns' values (an absent column counts as empty). */
    public Result append(Transaction tx, Append append) throws IOException {
        return readModifyWrite(tx).append(append);
    }

    /**
     * Evaluates the condition against the snapshot (plus this transaction's writes), with HBase's meaning of every
     * {@code CompareOperator} and Filter, and when it holds runs the action (Put, Delete, Increment, Append or
     * RowMutations) in this transaction. Only the written columns enter the write set: a condition on a column the
     * action does not write can be invalidated by a concurrent commit (snapshot isolation's write skew).
     */
    public CheckAndMutateResult checkAndMutate(Transaction tx, CheckAndMutate checkAndMutate) throws IOException {
        return readModifyWrite(tx).checkAndMutate(checkAndMutate);
    }

    /** Applies the mutations of one row in order; returns what its Increments and Appends return. */
    public Result mutateRow(Transaction tx, RowMutations mutations) throws IOException {
        return readModifyWrite(tx).mutateRow(mutations);
    }

    /**
     * Runs Puts, Deletes, Gets, Increments and Appends of one transaction. {@code results[i]} becomes the Result of a
     * Get, Increment or Append, or an empty Result for a Put or Delete. Consecutive Puts, Deletes or Gets go to HBase
     * together; actions run in the given order.
     */
    public void batch(Transaction tx, List<? extends Row> actions, Object[] results) throws IOException {
        if (results != null && results.length != actions.size()) {
            throw new IllegalArgumentException("results has " + results.length + " slots for " + actions.size()
                    + " actions; pass an array of the same length (or null)");
        }
        for (Row action : actions) {
            if (!(action instanceof Put || action instanceof Delete || action instanceof Get
                    || action instanceof Increment || action instanceof Append)) {
                throw new UnsupportedOperationException(action.getClass().getSimpleName() + " is not supported in"
                        + " a transactional batch; Put, Delete, Get, Increment and Append are (use checkAndMutate"
                        + " and mutateRow for the others)");
            }
        }
        int start = 0;
        while (start < actions.size()) {
            Class<?> kind = actions.get(start).getClass();
            int end = start + 1;
            boolean groupable = kind == Put.class || kind == Delete.class || kind == Get.class;
            while (groupable && end < actions.size() && actions.get(end).getClass() == kind) {
                end++;
            }
            runGroup(tx, actions.subList(start, end), results, start);
            start = end;
        }
    }

    private void runGroup(Transaction tx, List<? extends Row> run, Object[] results, int offset) throws IOException {
        Row first = run.get(0);
        if (first instanceof Increment || first instanceof Append) {
            ReadModifyWrite rmw = readModifyWrite(tx);
            Result r = first instanceof Increment ? rmw.increment((Increment) first) : rmw.append((Append) first);
            if (results != null) {
                results[offset] = r;
            }
            return;
        }
        if (first instanceof Get) {
            List<Get> gets = new ArrayList<>(run.size());
            for (Row r : run) {
                gets.add((Get) r);
            }
            Result[] rs = get(tx, gets);
            if (results != null) {
                System.arraycopy(rs, 0, results, offset, rs.length);
            }
            return;
        }
        if (first instanceof Put) {
            List<Put> puts = new ArrayList<>(run.size());
            for (Row r : run) {
                puts.add((Put) r);
            }
            put(tx, puts);
        } else {
            List<Delete> deletes = new ArrayList<>(run.size());
            for (Row r : run) {
                deletes.add((Delete) r);
            }
            delete(tx, deletes);
        }
        if (results != null) {
            for (int i = 0; i < run.size(); i++) {
                results[offset + i] = Result.EMPTY_RESULT;
            }
        }
    }

    private SnapshotReader reader(Transaction tx, String action) throws IOException {
        return new SnapshotReader(tx, tx.readerContext(), table, checked(tx, action).conversion);
    }

    /**
     * Reads {@code get} at the transaction's snapshot alone, without its own writes ({@link ReadBeforeBegin}: what
     * the row read before the transaction began must still be).
     */
    Result getAtSnapshotOnly(Transaction tx, Get get) throws IOException {
        ReaderContext reader = tx.readerContextWithoutOwnWrites();
        if (serverSide(tx, "read")) {
            return new ServerSideSnapshotReads(tx, reader, table).get(get);
        }
        return new SnapshotReader(tx, reader, table, checked(tx, "read").conversion).get(get);
    }

    /**
     * A read that decides what a write of the transaction does (read-modify-writes): like
     * {@link #get(Transaction, Get)}, seeing every own write made so far whatever the visibility level
     * ({@link Transaction#readerContextForWrites}).
     */
    Result getForWrite(Transaction tx, Get get) throws IOException {
        try {
            if (serverSide(tx, "read")) {
                return new ServerSideSnapshotReads(tx, tx.readerContextForWrites(), table).get(get);
            }
            return new SnapshotReader(tx, tx.readerContextForWrites(), table, checked(tx, "read").conversion)
                    .get(get);
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    /**
     * A writer of the transaction's tentative cells: refuses a transaction that is not running or was begun read-only.
     *
     * @throws TableConvertedAfterStartException the table became transactional after the transaction began
     */
    TentativeWriter writer(Transaction tx, String action, boolean conflictChecked) throws IOException {
        Conversion conversion = checked(tx, action).conversion;
        if (!tx.isBegun()) {
            // Puts of a transaction not begun yet (lazy begin), kept until it begins, after the conversion, or commits
            // without beginning; they read nothing.
            return new TentativeWriter(tx, tableName, table, null, conflictChecked);
        }
        if (conversion.startedBefore(tx.startTimestamp())) {
            throw new TableConvertedAfterStartException(tableName, tx.startTimestamp(), conversion.convertedAt());
        }
        return new TentativeWriter(tx, tableName, table,
                new SnapshotReader(tx, tx.readerContextForWrites(), table, conversion), conflictChecked);
    }

    /** The read of a transaction that may read before it begins ({@link ReadBeforeBegin}); null when it may not. */
    private @Nullable Result readBeforeBegin(Transaction tx, Get get) throws IOException {
        if (!tx.mayReadBeforeBegin() || !ReadBeforeBegin.canRead(get) || !checked(tx, "read").fastPath) {
            return null;
        }
        ReadBeforeBegin read = tx.readBeforeBegin(table, get);
        return read == null ? null : read.result();
    }

    /** A read-modify-write of {@code tx}, begun first: it reads. */
    private ReadModifyWrite readModifyWrite(Transaction tx) throws IOException {
        tx.beginIfNotBegun();
        return new ReadModifyWrite(this, tx);
    }

    /**
     * Checks the transaction and the table, and begins a transaction begun lazily: the caller reads. True when the
     * table's region servers resolve snapshots.
     */
    private boolean serverSide(Transaction tx, String action) throws IOException {
        boolean serverSide = checked(tx, action).serverSide;
        tx.beginIfNotBegun(); // a read needs the snapshot (lazy begin)
        return serverSide;
    }

    private TransactionalTableCheck.CheckedTable checked(Transaction tx, String action) throws IOException {
        tx.checkRunning(action);
        TransactionalTableCheck.CheckedTable known = checked;
        if (known == null) {
            known = tx.manager().tableCheck().check(table);
            checked = known;
        }
        return known;
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
