package io.tidemark.visibility;

import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Decides whether, and when, the writer of a stored version committed (docs/architecture.md, "Reading a snapshot"):
 * <ol>
 *   <li>a shadow cell holds the commit timestamp;</li>
 *   <li>a version below the table's conversion ({@link VersionStore#conversion()}) is a legacy write, made outside
 *       transactions before the table became transactional: committed at its own version. The commit table is
 *       never asked about it, and it is never invalidated;</li>
 *   <li>else the commit table: a commit record decides (and, when healing, the missing shadow cell is written);</li>
 *   <li>no record, or an invalidation marker: re-read the shadow cell, since the writer may have finished its
 *       post-commit (shadow cells written, record deleted) since the row was read;</li>
 *   <li>an invalidation marker: never committed;</li>
 *   <li>nothing at all: the writer is pending. The {@link PendingWriterPolicy} either reports that, or invalidates the
 *       writer ({@link WriterInvalidation}). If the writer's commit record won that race, it decides; otherwise re-read
 *       the shadow cell once more: one that appeared means the writer committed and deleted its record just before
 *       the invalidation landed in the empty row, so the invalidation is undone and the shadow cell decides.</li>
 * </ol>
 * Final outcomes are remembered in the reader's {@link DecidedWriters}, so every cell of a writer is judged the same.
 * A version's writer is {@link Timestamps#writerOf} it: every checkpoint version of a transaction is decided by that
 * transaction's one commit record, while each shadow cell is read at the version it covers.
 */
public final class WriterResolver {

    private static final Logger LOG = LoggerFactory.getLogger(WriterResolver.class);

    private final CommitTable commitTable;
    private final VersionStore store;
    private final PendingWriterPolicy pendingWriters;
    private final boolean healShadowCells;
    private final DecidedWriters decided;
    private final ReaderEffects effects;

    private WriterResolver(CommitTable commitTable, VersionStore store, PendingWriterPolicy pendingWriters,
            boolean healShadowCells, DecidedWriters decided, ReaderEffects effects) {
        this.commitTable = commitTable;
        this.store = store;
        this.pendingWriters = pendingWriters;
        this.healShadowCells = healShadowCells;
        this.decided = decided;
        this.effects = effects;
    }

    /**
     * A generic reader's resolver: pending writers are treated by {@link PendingWriterPolicy#forReader}, and the
     * shadow cells of writers found committed in the commit table are healed (it saves later readers the lookup).
     *
     * @param effects told about each invalidation and heal
     */
    public static WriterResolver forReader(ReaderContext reader, CommitTable commitTable, VersionStore store,
            DecidedWriters decided, ReaderEffects effects) {
        return new WriterResolver(commitTable, store, PendingWriterPolicy.forReader(reader), true, decided, effects);
    }

    /**
     * The fast path's resolver: heals no shadow cells, and treats pending writers by {@code pendingWriters}
     * ({@link PendingWriterPolicy#REPORT} for writes, {@link PendingWriterPolicy#upTo} for a plain read).
     *
     * @param decided the operation's remembered outcomes
     */
    public static WriterResolver forFastPath(CommitTable commitTable, VersionStore store,
            PendingWriterPolicy pendingWriters, DecidedWriters decided) {
        return new WriterResolver(commitTable, store, pendingWriters, false, decided, ReaderEffects.NONE);
    }

    /**
     * The compaction's resolver (below the low watermark): invalidates pending writers; heals nothing, since the
     * compaction writes the missing shadow cells into the compacted file itself.
     */
    public static WriterResolver forCompaction(CommitTable commitTable, VersionStore store) {
        return new WriterResolver(commitTable, store, PendingWriterPolicy.INVALIDATE, false, new DecidedWriters(),
                ReaderEffects.NONE);
    }

    /** The outcome of the writer of {@code version} of {@code column}. */
    public WriterOutcome outcome(ColumnVersions column, long version) throws IOException {
        Long shadow = column.commitTimestampAt(version);
        if (shadow != null) {
            return WriterOutcome.committedAt(shadow);
        }
        if (store.conversion().isLegacy(version)) {
            return WriterOutcome.legacyWriteAt(version);
        }
        long writer = Timestamps.writerOf(version);
        WriterOutcome known = decided.get(writer);
        if (known != null) {
            return known;
        }
        WriterOutcome outcome = decide(column, version, writer);
        decided.remember(writer, outcome);
        return outcome;
    }

    private WriterOutcome decide(ColumnVersions column, long version, long writer) throws IOException {
        CommitState state = commitTable.lookup(writer);
        if (state.isCommitted()) {
            return committed(column, version, state.commitTimestamp());
        }
        Long shadow = shadowCommitTimestamp(column, version);
        if (shadow != null) {
            return WriterOutcome.committedAt(shadow);
        }
        if (state.isInvalidated()) {
            return WriterOutcome.NEVER_COMMITTED;
        }
        if (!pendingWriters.invalidates(writer)) {
            return WriterOutcome.PENDING;
        }
        // A shadow cell found now means the writer committed and deleted its record between our lookup and our
        // invalidation.
        WriterInvalidation invalidation = WriterInvalidation.invalidate(commitTable, writer,
                () -> shadowCommitTimestamp(column, version));
        if (invalidation.isCommittedByRecord()) {
            return committed(column, version, invalidation.commitTimestamp());
        }
        if (invalidation.isCommitted()) {
            return WriterOutcome.committedAt(invalidation.commitTimestamp());
        }
        effects.invalidatedPendingWriter(writer);
        return WriterOutcome.NEVER_COMMITTED;
    }

    /** The commit timestamp a shadow cell stored now (not as of the first read) holds, or null when there is none. */
    private @Nullable Long shadowCommitTimestamp(ColumnVersions column, long version) throws IOException {
        byte[] shadowQualifier = CellEncoding.shadowQualifier(column.qualifier());
        Result r = store.get(new Get(column.row()).addColumn(column.family(), shadowQualifier).setTimestamp(version));
        byte[] value = r.getValue(column.family(), shadowQualifier);
        return value == null ? null : CellEncoding.decodeCommitTimestamp(value, 0, value.length);
    }

    private WriterOutcome committed(ColumnVersions column, long version, long commitTimestamp) {
        if (healShadowCells) {
            try {
                store.put(new Put(column.row()).addColumn(column.family(),
                        CellEncoding.shadowQualifier(column.qualifier()), version,
                        CellEncoding.encodeCommitTimestamp(commitTimestamp)));
                effects.healedShadowCell(version);
            } catch (IOException e) {
                // Healing only saves later readers a lookup: the commit record stays until the shadow cells exist.
                LOG.debug("could not heal the shadow cell of {} {} at {}", Bytes.toStringBinary(column.row()),
                        column.key(), version, e);
            }
        }
        return WriterOutcome.committedAt(commitTimestamp);
    }
}
