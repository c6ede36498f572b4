package io.tidemark.client.sweeper;

import io.tidemark.client.admin.TableDescriptors;
import io.tidemark.client.admin.TransactionalTables;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.visibility.Conversion;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the commit table small without ever losing a committed write (docs/coprocessors.md, "Commit-table sweeper").
 * A record that outlives its client is a commit whose post-commit never finished, or an invalidation marker. One pass
 * over a batch of old records:
 * <ol>
 *   <li>takes the time T1 and reads the persisted low watermark, then finds the tables that may hold the
 *       transactions' cells ({@link TransactionalTables}; refuses to run while one of them is not marked);</li>
 *   <li>scans those tables at exactly the records' versions (the writers' start timestamps); writes the missing
 *       shadow cells of committed writers, and notes which invalidated writers have a shadow cell;</li>
 *   <li>an invalidated writer with a shadow cell committed (a reader invalidated it after its post-commit and died
 *       before undoing that): its marker is wrong, so the sweeper writes any shadow cell it still lacks and undoes the
 *       marker; its data stays;</li>
 *   <li>an invalidated writer without a shadow cell whose start is at or below the low watermark is rolled back: the
 *       TSO refuses its COMMIT, so its only way to commit is a commit-record write it was granted earlier, and every
 *       such write ends within {@link TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS} of the grant, which came before
 *       T1. Its tentative cells go at once (while the marker stands it cannot commit); the marker goes once T1 plus
 *       that timeout plus {@link TidemarkConfig#SWEEPER_MARKER_MARGIN_MS} has passed;</li>
 *   <li>any other invalidated writer is left alone: only its marker keeps it from committing;</li>
 *   <li>committed records are deleted once their shadow cells are written.</li>
 * </ol>
 * No version with a shadow cell is ever deleted, and no cell a converted table held before its conversion (a legacy
 * write, {@link Conversion}) is ever touched. Commit records do not list the cells a transaction wrote
 * (recording write sets would slow every commit, and a batched-mode TSO does not know them); the scans cost only the
 * sweeper, and HBase skips store files outside their time range.
 *
 * <p>Runs outside the TSO (whose event loop must stay short) as a library call: a scheduled tool or a daemon thread
 * calls {@link #sweepAll()}. Passes are idempotent and safe next to live clients and other sweepers: a live client's
 * own post-commit writes the same shadow cells, and markers are only ever removed by a delete conditional on the
 * marker.
 */
public final class CommitTableSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(CommitTableSweeper.class);

    /**
     * Writers whose versions one table scan looks for: each brings 256 versions (start and checkpoints) into the
     * scan's timestamp filter, which this keeps near half a megabyte.
     */
    private static final int WRITERS_PER_SCAN = 256;

    private final Connection connection;
    private final SweeperSettings settings;
    private final HBaseCommitTable commitTable;
    private final TransactionalTables transactionalTables;

    public CommitTableSweeper(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.settings = new SweeperSettings(config);
        CommitTableSettings records = settings.client().commitTable();
        // The sweeper removes records and markers itself: it signs their removal with the TSOs' decision keys.
        this.commitTable = new HBaseCommitTable(connection, records.tableName(), records.schema(),
                new TimestampTableKeys(connection, config.get(TidemarkConfig.TIMESTAMP_TABLE)));
        this.transactionalTables = new TransactionalTables(settings.client());
    }

    /** Sweeps the whole commit table, one batch of {@link TidemarkConfig#SWEEPER_BATCH} records per pass. */
    public SweepResult sweepAll() throws IOException {
        SweepResult total = SweepResult.EMPTY;
        byte[] from = HConstants.EMPTY_START_ROW;
        while (from != null) {
            OldRecords records = OldRecords.read(connection, commitTable.tableName(), from, settings);
            total = total.plus(sweep(records));
            from = records.next;
        }
        return total;
    }

    /** One pass over the first {@link TidemarkConfig#SWEEPER_BATCH} old records. */
    public SweepResult sweepOnce() throws IOException {
        return sweep(OldRecords.read(connection, commitTable.tableName(), HConstants.EMPTY_START_ROW, settings));
    }

    private SweepResult sweep(OldRecords records) throws IOException {
        // T1, then the watermark: every COMMIT granted to a writer at or below it was granted before T1.
        long readAt = System.nanoTime();
        long lowWatermark = commitTable.readLowWatermark();
        List<TableName> tables = tables();
        if (records.isEmpty()) {
            return SweepResult.EMPTY;
        }
        Pass pass = new Pass(records);
        pass.completeAndInspect(tables);
        Set<Long> dead = new TreeSet<>();
        int undecided = 0;
        for (long start : records.invalidated) {
            if (pass.wrongMarkers.containsKey(start)) {
                continue;
            }
            if (start <= lowWatermark) {
                dead.add(start);
            } else {
                undecided++;
            }
        }
        pass.healWrongAndRemoveDead(tables, dead);
        commitTable.releaseAll(records.committedRecords());
        for (long start : pass.wrongMarkers.keySet()) {
            commitTable.undoInvalidation(start);
        }
        dead.removeAll(pass.shadowedLate);
        if (!dead.isEmpty()) {
            awaitMarkerRemoval(readAt);
            for (long start : dead) {
                // Conditional on the marker: only an invalidation is ever removed, never a commit record.
                commitTable.undoInvalidation(start);
            }
        }
        SweepResult result = new SweepResult(records.committed.size(), dead.size(), pass.wrongMarkers.size(),
                undecided, pass.shadowCellsWritten, pass.tentativeCellsRemoved);
        LOG.info("{} (low watermark {})", result, lowWatermark);
        return result;
    }

    private List<TableName> tables() throws IOException {
        try (Admin admin = connection.getAdmin()) {
            return transactionalTables.find(admin);
        }
    }

    /** Waits until the commit-record timeout plus the margin has passed since {@code readAtNanos}. */
    private void awaitMarkerRemoval(long readAtNanos) throws IOException {
        long until = readAtNanos + TimeUnit.MILLISECONDS.toNanos(settings.markerRemovalDelayMs());
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to remove invalidation markers; they"
                        + " stay, and the next pass removes them");
            }
        }
    }

    /** The table work of one pass. */
    private final class Pass {

        final OldRecords records;
        /** Invalidated writers found with a shadow cell: start timestamp to commit timestamp. */
        final Map<Long, Long> wrongMarkers = new TreeMap<>();
        /** Writers thought dead in which the removal scan still met a shadow cell: their markers stay. */
        final Set<Long> shadowedLate = new TreeSet<>();
        long shadowCellsWritten;
        long tentativeCellsRemoved;

        Pass(OldRecords records) {
            this.records = records;
        }

        /** Writes committed writers' missing shadow cells and finds the invalidated writers that have one. */
        void completeAndInspect(List<TableName> tables) throws IOException {
            scan(tables, records.starts(), (column, fixes) -> {
                long writer = column.writer();
                Long commit = records.committed.get(writer);
                if (commit != null) {
                    if (column.isTentative()) {
                        fixes.writeShadowCell(column, commit);
                    }
                } else if (column.hasShadowCell()) {
                    wrongMarkers.put(writer, column.shadowCommit());
                }
            });
        }

        /** Completes the writers of wrong markers, and removes the tentative cells of dead writers. */
        void healWrongAndRemoveDead(List<TableName> tables, Set<Long> dead) throws IOException {
            Set<Long> versions = new TreeSet<>(dead);
            versions.addAll(wrongMarkers.keySet());
            if (versions.isEmpty()) {
                return;
            }
            scan(tables, versions, (column, fixes) -> {
                long writer = column.writer();
                Long commit = wrongMarkers.get(writer);
                if (commit != null) {
                    if (column.isTentative()) {
                        fixes.writeShadowCell(column, commit);
                    }
                } else if (column.hasShadowCell()) {
                    // Cannot happen (a marked writer's shadow cells all predate its marker); never delete it.
                    LOG.error("writer {} was invalidated but {} has a shadow cell; keeping its marker and data",
                            writer, column);
                    shadowedLate.add(writer);
                } else {
                    fixes.removeTentative(column);
                }
            });
        }

        /** Applies the action to every stored version of the given writers, a few writers per scan. */
        private void scan(List<TableName> tables, Set<Long> writers, ColumnAction action) throws IOException {
            List<Long> all = new ArrayList<>(writers);
            for (int from = 0; from < all.size(); from += WRITERS_PER_SCAN) {
                Set<Long> chunk = new TreeSet<>(all.subList(from, Math.min(all.size(), from + WRITERS_PER_SCAN)));
                for (TableName name : tables) {
                    scanTable(name, chunk, action);
                }
            }
        }

        private void scanTable(TableName name, Set<Long> writers, ColumnAction action) throws IOException {
            try (Table table = connection.getTable(name);
                 ResultScanner rows = table.getScanner(StoredColumnVersion.scanAt(writers))) {
                // Cells stored before the table was converted are committed legacy writes, whatever the commit
                // table says of a transaction that happens to share their version: never touched.
                Conversion conversion = Conversion.of(TableDescriptors.of(table));
                CellFixes fixes = new CellFixes(table);
                for (Result row : rows) {
                    for (StoredColumnVersion column : StoredColumnVersion.of(row)) {
                        if (writers.contains(column.writer()) && !conversion.isLegacy(column.version())) {
                            action.apply(column, fixes);
                        }
                    }
                }
                fixes.flush();
                shadowCellsWritten += fixes.shadowCellsWritten();
                tentativeCellsRemoved += fixes.tentativeCellsRemoved();
            }
        }
    }

    /** What a pass does with one stored column version. */
    private interface ColumnAction {
        void apply(StoredColumnVersion column, CellFixes fixes) throws IOException;
    }
}
