package io.tidemark.client;

import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Decides whether the writer of a tentative version (a data cell or tombstone without a shadow cell) committed
 * before the reader's snapshot. Asks the commit table and, in low-latency mode, invalidates a writer whose commit is
 * still undecided, so that it can never commit into a snapshot that already looked past it.
 */
final class WriterResolver {

    private static final Logger LOG = LoggerFactory.getLogger(WriterResolver.class);

    private final Transaction reader;
    private final CommitTable commitTable;
    private final Table table;

    WriterResolver(Transaction reader, CommitTable commitTable, Table table) {
        this.reader = reader;
        this.commitTable = commitTable;
        this.table = table;
    }

    /**
     * Whether the version written at {@code version} of the given column belongs to the reader's snapshot.
     * {@code shadowCommit} is the commit timestamp from a fetched shadow cell, or null.
     */
    boolean isVisible(long version, Long shadowCommit, byte[] row, byte[] family, byte[] qualifier)
            throws IOException {
        long snapshot = reader.startTimestamp();
        if (version == snapshot) {
            return true;
        }
        if (shadowCommit != null) {
            return shadowCommit < snapshot;
        }
        Long known = reader.resolvedWriter(version);
        if (known == null) {
            known = commitTimestampOf(version, row, family, qualifier);
            reader.rememberWriter(version, known);
        }
        return known < snapshot;
    }

    /** The writer's commit timestamp, or {@link Transaction#NOT_VISIBLE} when it can never be in this snapshot. */
    private long commitTimestampOf(long writer, byte[] row, byte[] family, byte[] qualifier) throws IOException {
        CommitState state = commitTable.lookup(writer);
        if (state.isCommitted()) {
            healShadowCell(row, family, qualifier, writer, state.commitTimestamp());
            return state.commitTimestamp();
        }
        // No record, or an invalidation marker: the writer may have finished post-commit (shadow cells written,
        // record deleted) since our read, and a marker may be a reader's mistake about to be undone.
        Long shadow = readShadowCell(row, family, qualifier, writer);
        if (shadow != null) {
            return shadow;
        }
        if (state.isInvalidated()) {
            return Transaction.NOT_VISIBLE;
        }
        if (reader.commitMode() == CommitMode.BATCHED) {
            // A batched BEGIN waits until every earlier commit is durable: a commit we cannot see is after us.
            return Transaction.NOT_VISIBLE;
        }
        state = commitTable.invalidate(writer);
        if (state.isCommitted()) {
            healShadowCell(row, family, qualifier, writer, state.commitTimestamp());
            return state.commitTimestamp();
        }
        shadow = readShadowCell(row, family, qualifier, writer);
        if (shadow != null) {
            // The writer had committed and cleaned up its record between our two reads: our marker is wrong.
            commitTable.undoInvalidation(writer);
            return shadow;
        }
        return Transaction.NOT_VISIBLE;
    }

    private Long readShadowCell(byte[] row, byte[] family, byte[] qualifier, long version) throws IOException {
        byte[] shadowQualifier = CellEncoding.shadowQualifier(qualifier);
        Result r = table.get(new Get(row).addColumn(family, shadowQualifier).setTimestamp(version));
        byte[] value = r.getValue(family, shadowQualifier);
        return value == null ? null : CellEncoding.decodeCommitTimestamp(value, 0, value.length);
    }

    /** Writes the shadow cell a committed writer did not get to write; only saves later readers a lookup. */
    private void healShadowCell(byte[] row, byte[] family, byte[] qualifier, long version, long commitTs) {
        try {
            table.put(new Put(row).addColumn(family, CellEncoding.shadowQualifier(qualifier), version,
                    CellEncoding.encodeCommitTimestamp(commitTs)));
        } catch (IOException e) {
            LOG.debug("could not heal the shadow cell of {} {}:{} at {}", Bytes.toStringBinary(row),
                    Bytes.toStringBinary(family), Bytes.toStringBinary(qualifier), version, e);
        }
    }
}
