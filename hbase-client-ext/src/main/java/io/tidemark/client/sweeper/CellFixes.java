package io.tidemark.client.sweeper;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The sweeper's writes to one transactional table, sent in batches: shadow cells of committed writers, and removals of
 * the tentative cells of writers proven never to commit. Counts what it wrote. The table stays the caller's.
 */
final class CellFixes {

    private static final int FLUSH_AT = 1000;

    private final Table table;
    private final List<Mutation> pending = new ArrayList<>();
    private long shadowCellsWritten;
    private long tentativeCellsRemoved;

    CellFixes(Table table) {
        this.table = table;
    }

    /** Writes the shadow cell of {@code column}, whose writer committed at {@code commitTimestamp}. */
    void writeShadowCell(StoredColumnVersion column, long commitTimestamp) throws IOException {
        add(new Put(column.row()).addColumn(column.family(), CellEncoding.shadowQualifier(column.qualifier()),
                column.version(), CellEncoding.encodeCommitTimestamp(commitTimestamp)));
        shadowCellsWritten++;
    }

    /** Removes the data cell and tombstone of {@code column} at exactly its version; never a shadow cell. */
    void removeTentative(StoredColumnVersion column) throws IOException {
        if (column.hasShadowCell()) {
            throw new IllegalStateException("refusing to remove " + column + ": it has a shadow cell (committed)");
        }
        Delete delete = new Delete(column.row());
        if (column.hasData()) {
            delete.addColumn(column.family(), column.qualifier(), column.version());
            tentativeCellsRemoved++;
        }
        if (column.hasTombstone()) {
            delete.addColumn(column.family(), CellEncoding.tombstoneQualifier(column.qualifier()), column.version());
            tentativeCellsRemoved++;
        }
        if (!delete.isEmpty()) {
            add(delete);
        }
    }

    long shadowCellsWritten() {
        return shadowCellsWritten;
    }

    long tentativeCellsRemoved() {
        return tentativeCellsRemoved;
    }

    private void add(Mutation mutation) throws IOException {
        pending.add(mutation);
        if (pending.size() >= FLUSH_AT) {
            flush();
        }
    }

    /** Sends what is pending; a failure leaves the records in place, so a later pass repeats the work. */
    void flush() throws IOException {
        if (pending.isEmpty()) {
            return;
        }
        try {
            table.batch(pending, new Object[pending.size()]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while writing sweeper fixes").initCause(e);
        }
        pending.clear();
    }
}
