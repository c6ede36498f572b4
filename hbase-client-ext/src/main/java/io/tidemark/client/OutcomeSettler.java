package io.tidemark.client;

import io.tidemark.client.admin.TableDescriptors;
import io.tidemark.client.admin.TransactionalTables;
import io.tidemark.client.sweeper.StoredColumnVersion;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.visibility.Conversion;
import io.tidemark.visibility.WriterInvalidation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Settles the outcome of a transaction nobody is tracking any more ({@link TransactionManager#outcome(long)}).
 *
 * <ol>
 *   <li>The commit record says committed: COMMITTED.</li>
 *   <li>Otherwise invalidate the transaction (decided by content). If a commit won the race: COMMITTED. From here on
 *       the invalidation stands, so the transaction can never commit.</li>
 *   <li>But it may have committed <em>before</em>, and finished its post-commit: shadow cells durable, record
 *       deleted, so the invalidation landed in an empty row. Its shadow cells prove it. Look at the cells stored at
 *       its versions (the start timestamp and its checkpoint versions): a shadow cell means the invalidation was
 *       wrong; undo it (only a marker is ever removed) and report COMMITTED at the shadow cell's commit timestamp.</li>
 *   <li>A data cell or tombstone without a shadow cell: ABORTED. (A committed writer deletes its record only once
 *       all its shadow cells are durable, and compaction removes a version only with its shadow cell.)</li>
 *   <li>Nothing stored at those versions: ABORTED, unless the start is at or below the persisted low watermark, read
 *       after the search. Then compaction may have removed the versions of a committed writer that later commits
 *       overwrote, and nothing tells a commit from an abort: COLLECTED.</li>
 * </ol>
 * A converted table is not searched below its conversion: what it stores there are legacy writes, made by no
 * transaction ({@link Conversion}). The search either scans every table that may hold transactional cells at exactly
 * those versions (HBase skips store
 * files outside the time range), or, knowing the transaction's write set, reads its written cells.
 */
final class OutcomeSettler {

    private final Connection connection;
    private final CommitTable commitTable;
    private final TransactionalTables transactionalTables;

    OutcomeSettler(Connection connection, CommitTable commitTable, TransactionalTables transactionalTables) {
        this.connection = connection;
        this.commitTable = commitTable;
        this.transactionalTables = transactionalTables;
    }

    /** Settles {@code start} by scanning the transactional tables at its version. */
    TransactionOutcome settle(long start) throws IOException {
        CommitState state = commitTable.lookup(start);
        if (state.isCommitted()) {
            return TransactionOutcome.committed(start, state.commitTimestamp());
        }
        List<TableName> tables;
        try (Admin admin = connection.getAdmin()) {
            // Refuse before invalidating anything: a table we cannot search could hide the proof of a commit.
            tables = transactionalTables.find(admin);
        }
        return settleUncommitted(start, found -> scanTables(tables, start, found));
    }

    /** Settles the transaction by reading the cells it wrote. */
    TransactionOutcome settle(long start, WriteSet writes) throws IOException {
        CommitState state = commitTable.lookup(start);
        if (state.isCommitted()) {
            return TransactionOutcome.committed(start, state.commitTimestamp());
        }
        return settleUncommitted(start, found -> readWrittenCells(writes, start, found));
    }

    /** Steps 2 to 5, for a transaction whose record did not say committed. */
    private TransactionOutcome settleUncommitted(long start, Search search) throws IOException {
        Evidence found = new Evidence();
        WriterInvalidation invalidation = WriterInvalidation.invalidate(commitTable, start, () -> {
            search.run(found);
            return found.shadowCommit;
        });
        if (invalidation.isCommitted()) {
            return TransactionOutcome.committed(start, invalidation.commitTimestamp());
        }
        if (found.tentative || start > commitTable.readLowWatermark()) {
            return TransactionOutcome.aborted(start);
        }
        return TransactionOutcome.collected(start);
    }

    private void scanTables(List<TableName> tables, long start, Evidence found) throws IOException {
        for (TableName name : tables) {
            try (Table table = connection.getTable(name)) {
                if (Conversion.of(TableDescriptors.of(table)).isLegacy(start)) {
                    // What the table stores at that version was written before its conversion, by no transaction.
                    continue;
                }
                try (ResultScanner rows = table.getScanner(StoredColumnVersion.scanAt(Collections.singleton(start)))) {
                    for (Result row : rows) {
                        if (found.add(StoredColumnVersion.of(row), start)) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /** One written cell usually decides; the others are read only when nothing of it is stored. */
    private void readWrittenCells(WriteSet writes, long start, Evidence found) throws IOException {
        boolean first = true;
        for (TableName name : writes.tables()) {
            List<Get> gets = new ArrayList<>();
            for (WrittenCell cell : writes.cells(name)) {
                Get stored = new Get(cell.row());
                for (byte[] q : CellEncoding.storedQualifiers(cell.qualifier())) {
                    stored.addColumn(cell.family(), q);
                }
                gets.add(stored.setTimeRange(cell.versions().first(), cell.versions().last() + 1).readAllVersions());
            }
            try (Table table = connection.getTable(name)) {
                List<Get> rest = gets;
                if (first) {
                    first = false;
                    if (found.add(StoredColumnVersion.of(table.get(gets.get(0))), start)) {
                        return;
                    }
                    rest = gets.subList(1, gets.size());
                }
                for (Result row : rest.isEmpty() ? new Result[0] : table.get(rest)) {
                    if (found.add(StoredColumnVersion.of(row), start)) {
                        return;
                    }
                }
            }
        }
    }

    /** What the search found at the transaction's version. */
    private static final class Evidence {
        @Nullable Long shadowCommit;
        boolean tentative;

        /** Adds a row's columns; true once they decide (a shadow cell, or a tentative cell). */
        boolean add(List<StoredColumnVersion> columns, long start) {
            for (StoredColumnVersion column : columns) {
                if (column.writer() != start) {
                    continue;
                }
                if (column.hasShadowCell()) {
                    shadowCommit = column.shadowCommit();
                    return true;
                }
                if (column.isTentative()) {
                    tentative = true;
                    return true;
                }
            }
            return false;
        }
    }

    /** Finds what the transaction left at its version, into {@code found}. */
    private interface Search {
        void run(Evidence found) throws IOException;
    }
}
