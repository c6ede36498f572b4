package io.tidemark.client.sweeper;

import io.tidemark.client.admin.TransactionalTableInspector;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the commit table small (docs/coprocessors.md, "Commit-table sweeper"). A record that outlives its client is
 * either a commit whose post-commit never ran (the client died after the record, before or while writing shadow
 * cells) or a reader's invalidation of a writer that never committed. For records older than a configurable age,
 * one pass:
 * <ol>
 *   <li>finds the transactions' cells by scanning every transactional table over the records' timestamp range
 *       (cells are versioned by the writer's start timestamp, and HBase skips store files outside the range);</li>
 *   <li>writes the missing shadow cells of committed transactions, and deletes the tentative cells (data and
 *       tombstones at exactly that version) of invalidated ones;</li>
 *   <li>only then deletes the records.</li>
 * </ol>
 * Commit records do not list the cells a transaction wrote: recording write sets there would slow every commit
 * (and batched-mode TSOs do not know them), while the scan only costs the sweeper. A table counts as transactional
 * when one of its families is marked {@code tidemark.transactional} (TidemarkAdmin does that); a transaction that
 * wrote to an unmarked table must not be swept, so mark every table used in transactions.
 *
 * <p>Runs outside the TSO (whose event loop must stay short) as a library call: a scheduled tool or a daemon thread
 * calls {@link #sweepOnce()}. Passes are idempotent and safe next to live clients: a live client's own post-commit
 * writes the same shadow cells.
 */
public final class CommitTableSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(CommitTableSweeper.class);

    private final Connection connection;
    private final HBaseCommitTable commitTable;
    private final long committedAgeMs;
    private final long invalidatedAgeMs;
    private final int batch;

    public CommitTableSweeper(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.commitTable = new HBaseCommitTable(connection, new CommitTableSettings(config));
        this.committedAgeMs = config.getLong(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS,
                TidemarkConfig.SWEEPER_COMMITTED_AGE_MS_DEFAULT, 0, Long.MAX_VALUE);
        this.invalidatedAgeMs = config.getLong(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS,
                TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS_DEFAULT, 0, Long.MAX_VALUE);
        this.batch = config.getInt(TidemarkConfig.SWEEPER_BATCH, TidemarkConfig.SWEEPER_BATCH_DEFAULT, 1,
                10_000_000);
    }

    /** Sweeps until no old record is left; returns the totals. */
    public SweepResult sweepAll() throws IOException {
        int completed = 0;
        int rolledBack = 0;
        long shadows = 0;
        long removed = 0;
        while (true) {
            SweepResult pass = sweepOnce();
            if (pass.isEmpty()) {
                return new SweepResult(completed, rolledBack, shadows, removed);
            }
            completed += pass.completed();
            rolledBack += pass.rolledBack();
            shadows += pass.shadowCellsWritten();
            removed += pass.tentativeCellsRemoved();
        }
    }

    /** One pass over at most {@value TidemarkConfig#SWEEPER_BATCH} old records. */
    public SweepResult sweepOnce() throws IOException {
        Map<Long, Long> committed = new HashMap<>();
        Set<Long> invalidated = new HashSet<>();
        findOldRecords(committed, invalidated);
        if (committed.isEmpty() && invalidated.isEmpty()) {
            return new SweepResult(0, 0, 0, 0);
        }
        long[] counts = new long[2];
        for (TableName table : transactionalTables()) {
            sweepTable(table, committed, invalidated, counts);
        }
        List<Long> done = new ArrayList<>(committed.keySet());
        done.addAll(invalidated);
        commitTable.deleteAll(done);
        SweepResult result = new SweepResult(committed.size(), invalidated.size(), counts[0], counts[1]);
        LOG.info("{}", result);
        return result;
    }

    private void findOldRecords(Map<Long, Long> committed, Set<Long> invalidated) throws IOException {
        long now = System.currentTimeMillis();
        Scan scan = new Scan().addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER)
                .setCaching(Math.min(batch, 1000));
        try (Table table = connection.getTable(commitTable.tableName());
             ResultScanner records = table.getScanner(scan)) {
            for (Result r : records) {
                if (Bytes.equals(r.getRow(), CommitTableSchema.LOW_WATERMARK_ROW)) {
                    continue;
                }
                Cell cell = r.getColumnLatestCell(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
                long age = now - cell.getTimestamp();
                CommitState state = CommitTableSchema.decode(CellUtil.cloneValue(cell));
                long start = CommitTableSchema.startTimestampOf(r.getRow());
                if (state.isCommitted() && age >= committedAgeMs) {
                    committed.put(start, state.commitTimestamp());
                } else if (state.isInvalidated() && age >= invalidatedAgeMs) {
                    invalidated.add(start);
                }
                if (committed.size() + invalidated.size() >= batch) {
                    return;
                }
            }
        }
    }

    private List<TableName> transactionalTables() throws IOException {
        List<TableName> tables = new ArrayList<>();
        try (Admin admin = connection.getAdmin()) {
            for (TableDescriptor descriptor : admin.listTableDescriptors()) {
                for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
                    if (TransactionalTableInspector.isTransactional(family)) {
                        if (!admin.isTableEnabled(descriptor.getTableName())) {
                            // Its cells cannot be checked, and a record must outlive every cell that needs it.
                            throw new IOException("cannot sweep: transactional table " + descriptor.getTableName()
                                    + " is disabled; enable it, or drop it, before sweeping");
                        }
                        tables.add(descriptor.getTableName());
                        break;
                    }
                }
            }
        }
        return tables;
    }

    /** counts[0] += shadow cells written, counts[1] += tentative cells removed. */
    private static void sweepRows(Table table, Map<Long, Long> committed, Set<Long> invalidated, long[] counts)
            throws IOException {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long ts : committed.keySet()) {
            min = Math.min(min, ts);
            max = Math.max(max, ts);
        }
        for (long ts : invalidated) {
            min = Math.min(min, ts);
            max = Math.max(max, ts);
        }
        Scan scan = new Scan().setTimeRange(min, max + 1).readAllVersions().setCaching(500);
        try (ResultScanner rows = table.getScanner(scan)) {
            List<Mutation> fixes = new ArrayList<>();
            for (Result row : rows) {
                fixRow(row, committed, invalidated, fixes, counts);
                if (fixes.size() >= 1000) {
                    apply(table, fixes);
                }
            }
            apply(table, fixes);
        }
    }

    private void sweepTable(TableName name, Map<Long, Long> committed, Set<Long> invalidated, long[] counts)
            throws IOException {
        try (Table table = connection.getTable(name)) {
            sweepRows(table, committed, invalidated, counts);
        }
    }

    private static void fixRow(Result row, Map<Long, Long> committed, Set<Long> invalidated, List<Mutation> fixes,
            long[] counts) {
        Set<String> shadows = new HashSet<>();
        for (Cell c : row.rawCells()) {
            byte[] q = CellUtil.cloneQualifier(c);
            if (CellEncoding.isShadowQualifier(q, 0, q.length)) {
                shadows.add(columnVersion(CellUtil.cloneFamily(c), CellEncoding.userQualifier(q, 0, q.length),
                        c.getTimestamp()));
            }
        }
        Put put = new Put(row.getRow());
        Delete delete = new Delete(row.getRow());
        for (Cell c : row.rawCells()) {
            byte[] q = CellUtil.cloneQualifier(c);
            long version = c.getTimestamp();
            if (CellEncoding.isShadowQualifier(q, 0, q.length)) {
                continue;
            }
            byte[] family = CellUtil.cloneFamily(c);
            Long commit = committed.get(version);
            if (commit != null) {
                byte[] userQualifier = CellEncoding.isTombstoneQualifier(q, 0, q.length)
                        ? CellEncoding.userQualifier(q, 0, q.length) : q;
                if (shadows.add(columnVersion(family, userQualifier, version))) {
                    put.addColumn(family, CellEncoding.shadowQualifier(userQualifier), version,
                            CellEncoding.encodeCommitTimestamp(commit));
                    counts[0]++;
                }
            } else if (invalidated.contains(version)) {
                delete.addColumn(family, q, version);
                counts[1]++;
            }
        }
        if (!put.isEmpty()) {
            fixes.add(put);
        }
        if (!delete.isEmpty()) {
            fixes.add(delete);
        }
    }

    private static String columnVersion(byte[] family, byte[] qualifier, long version) {
        return Bytes.toStringBinary(family) + "/" + Bytes.toStringBinary(qualifier) + "@" + version;
    }

    private static void apply(Table table, List<Mutation> fixes) throws IOException {
        if (fixes.isEmpty()) {
            return;
        }
        Object[] results = new Object[fixes.size()];
        try {
            table.batch(fixes, results);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing sweeper fixes", e);
        }
        fixes.clear();
    }
}
