package io.tidemark.coprocessor;

import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides, inside a region server, whether the writer of a version without a shadow cell committed, and when. The
 * same steps as the client's reader (hbase-client-ext {@code WriterResolver}): the commit table first; with no
 * record, re-read the shadow cell (the writer may have finished post-commit meanwhile); then, when allowed,
 * invalidate the writer so it can never commit, and if the shadow cell appeared after all, undo that wrong
 * invalidation. Remembers outcomes for the life of one request, as a client remembers them for one transaction.
 * Not thread-safe: one instance per scanner, get or compaction.
 */
public final class WriterOutcomes {

    /** The writer did not commit, or never can: its versions are invisible. */
    public static final long NOT_COMMITTED = Long.MAX_VALUE;

    private static final Logger LOG = LoggerFactory.getLogger(WriterOutcomes.class);

    private final Region region;
    private final CommitTable commitTable;
    private final boolean healShadowCells;
    private final Map<Long, Long> decided = new HashMap<>();

    /**
     * @param healShadowCells whether to write the shadow cell of a writer found committed in the commit table (a
     *     reader saves later readers the lookup; a compaction writes it into the compacted file instead)
     */
    public WriterOutcomes(Region region, CommitTable commitTable, boolean healShadowCells) {
        this.region = region;
        this.commitTable = commitTable;
        this.healShadowCells = healShadowCells;
    }

    /**
     * The commit timestamp of the writer of {@code version} of the given column, or {@link #NOT_COMMITTED}.
     *
     * @param mayInvalidate whether a writer with no commit record may be invalidated (low-latency readers and the
     *     compaction below the low watermark); otherwise an undecided writer counts as not committed
     */
    public long commitTimestampOf(long version, byte[] row, byte[] family, byte[] qualifier, boolean mayInvalidate)
            throws IOException {
        Long known = decided.get(version);
        if (known == null) {
            known = decide(version, row, family, qualifier, mayInvalidate);
            decided.put(version, known);
        }
        return known;
    }

    private long decide(long writer, byte[] row, byte[] family, byte[] qualifier, boolean mayInvalidate)
            throws IOException {
        CommitState state = commitTable.lookup(writer);
        if (state.isCommitted()) {
            return healed(row, family, qualifier, writer, state.commitTimestamp());
        }
        // No record or an invalidation marker: the writer may have finished post-commit (shadow cells written,
        // record deleted) since the cells were read, and a marker may be a reader's mistake about to be undone.
        Long shadow = readShadowCell(row, family, qualifier, writer);
        if (shadow != null) {
            return shadow;
        }
        if (state.isInvalidated() || !mayInvalidate) {
            return NOT_COMMITTED;
        }
        state = commitTable.invalidate(writer);
        if (state.isCommitted()) {
            return healed(row, family, qualifier, writer, state.commitTimestamp());
        }
        shadow = readShadowCell(row, family, qualifier, writer);
        if (shadow != null) {
            // The writer committed and cleaned up its record between our two reads: our marker is wrong.
            commitTable.undoInvalidation(writer);
            return shadow;
        }
        return NOT_COMMITTED;
    }

    /** The shadow cell as stored now (memstore included), not as of the scanner's read point. */
    private Long readShadowCell(byte[] row, byte[] family, byte[] qualifier, long version) throws IOException {
        byte[] shadowQualifier = CellEncoding.shadowQualifier(qualifier);
        Result r = region.get(new Get(row).addColumn(family, shadowQualifier).setTimestamp(version));
        byte[] value = r.getValue(family, shadowQualifier);
        return value == null ? null : CellEncoding.decodeCommitTimestamp(value, 0, value.length);
    }

    private long healed(byte[] row, byte[] family, byte[] qualifier, long version, long commitTimestamp) {
        if (healShadowCells) {
            try {
                region.put(new Put(row).addColumn(family, CellEncoding.shadowQualifier(qualifier), version,
                        CellEncoding.encodeCommitTimestamp(commitTimestamp)));
            } catch (IOException e) {
                LOG.debug("could not heal the shadow cell of {} {}:{} at {}", Bytes.toStringBinary(row),
                        Bytes.toStringBinary(family), Bytes.toStringBinary(qualifier), version, e);
            }
        }
        return commitTimestamp;
    }
}
