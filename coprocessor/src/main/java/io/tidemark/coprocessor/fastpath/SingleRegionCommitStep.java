package io.tidemark.coprocessor.fastpath;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.coprocessor.TransactionalRegion;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import io.tidemark.fastpath.StaleFastPathOperationException;
import io.tidemark.singleregion.SingleRegionCommitDeclinedException;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.CommittedRow;
import io.tidemark.visibility.VersionStore;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Single-region commits of generic transactions (docs/architecture.md, "Single-region commit"): a Get carrying a
 * {@link SingleRegionCommitRequest} commits a transaction whose writes all fall in this region, in this one request.
 * Under the exclusive locks of every written row, taken in row order (the anchor row, the smallest, first):
 * <ol>
 *   <li>the anchor row's operation record of the request's stream answers a re-sent request (committed at its
 *       version, or declined); a settle request that finds none records a refusal;</li>
 *   <li>the rows must still be in this region, the one the client located them in (not a daughter after a split);</li>
 *   <li>first committer wins against every writer: a row with a writer nobody decided yet (the fast path's rule (a))
 *       or with a write committed after the snapshot (a generic transaction's shadow cell or commit record, a
 *       fast-path write, another single-region commit) declines;</li>
 *   <li>the anchor row must hold no cell at the snapshot's version, where the start mark goes (a cell there is
 *       another writer's, who began at the timestamp this request claims);</li>
 *   <li>the snapshot must be above the region's garbage-collection horizon, and above the first fresh timestamp
 *       this region incarnation accepted: a transaction that began before the region (re)opened may have been
 *       fenced by a schema change, which only the TSO knows;</li>
 *   <li>a version is minted by the fast path's clock above the snapshot, the rows' versions and the read clock, and
 *       data cells, tombstones, shadow cells, the start mark (a shadow cell at the snapshot's version, so that
 *       {@code TransactionManager.outcome} finds the commit) and the operation record are written in one atomic
 *       multi-row mutation, one WAL append.</li>
 * </ol>
 * A <em>write-only</em> request ({@link SingleRegionCommitRequest#isWriteOnly}) commits a transaction that read nothing
 * and never began: it has no snapshot, so steps 3's after-the-snapshot check, 4 and 5 do not apply, and the region
 * opening after it began cannot have fenced it; like a fast-path write it serialises at its version, minted above the
 * rows' versions, the read clock and the client's session floor, and it writes no start mark. One that names rows it
 * read before it would have begun ({@link SingleRegionCommitRequest#versionRead}) declines, in step 3, unless each
 * still has the version it was read at: the transaction then serialises at its version with the reads it made.
 * A refusal is recorded before it is answered, so a re-sent attempt of a declined request can never commit later,
 * after the client committed the transaction through the TSO instead. Refusals to mint (a region opened recently, or
 * no fast-path version left) are not recorded: the client retries the same request with a fresh TSO timestamp.
 */
public final class SingleRegionCommitStep implements RegionStep {

    private final TransactionalRegion region;
    private final RegionClock clock;
    private final FastPathSettings settings;
    private final VersionStore store;

    SingleRegionCommitStep(TransactionalRegion region, RegionClock clock, FastPathSettings settings) {
        this.region = region;
        this.clock = clock;
        this.settings = settings;
        this.store = region.store();
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        if (!SingleRegionCommitRequest.isSingleRegionCommit(get)) {
            return false;
        }
        region.metrics().singleRegionCommitRequest();
        SingleRegionCommitRequest request = SingleRegionCommitRequest.fromGet(get);
        if (request.isWriteOnly()) {
            if (request.floor() != Timestamps.NONE) {
                region.claims().checkTimestamp(request.floor(), "single-region commit floor");
            }
        } else {
            region.claims().checkTimestamp(request.snapshot(), "single-region commit snapshot");
        }
        if (request.freshTimestamp() != Timestamps.NONE) {
            region.claims().checkTimestamp(request.freshTimestamp(), "single-region commit fresh timestamp");
        }
        settings.checkOperationTimeout(request.operationTimeoutMillis());
        result.add(SingleRegionCommitRequest.answer(request.anchorRow(), commit(request)));
        return true;
    }

    private long commit(SingleRegionCommitRequest request) throws IOException {
        Region hbase = region.region();
        byte[] anchor = request.anchorRow();
        List<Region.RowLock> locks = new ArrayList<>();
        try {
            locks.add(hbase.getRowLock(anchor, false));
            Result anchorWindow = store.get(CommittedRow.windowRead(anchor));
            RowOperationRecords records = RowOperationRecords.in(anchor, anchorWindow);
            OperationRecord done = records.latestOf(request.idempotencyKey());
            if (done != null && done.sequence() >= request.idempotencyKey().sequence()) {
                return alreadyAnswered(request, done);
            }
            if (request.isSettle()) {
                throw decline(request, records, "the client settled the commit before it ran");
            }
            String outside = outsideRegion(hbase.getRegionInfo(), request);
            if (outside != null) {
                throw decline(request, records, outside);
            }
            for (Put row : request.rows().subList(1, request.rows().size())) {
                locks.add(hbase.getRowLock(row.getRow(), false));
            }
            long floor = request.isWriteOnly() ? request.floor() : request.snapshot();
            for (Put row : request.rows()) {
                Result window = row == request.rows().get(0) ? anchorWindow
                        : store.get(CommittedRow.windowRead(row.getRow()));
                CommittedRow state = CommittedRow.readLocked(store, region.commitTable(), row.getRow(), window);
                try {
                    state.requireNoPendingWriter(row.getRow(), "single-region commit");
                } catch (FastPathConflictException pending) {
                    throw decline(request, records, pending.getMessage());
                }
                long read = request.versionRead(row.getRow());
                if (read != SingleRegionCommitRequest.NOT_READ && state.version() != read) {
                    throw decline(request, records, "row " + Bytes.toStringBinary(row.getRow()) + " was written at"
                            + " version " + state.version() + " after the transaction read it at version " + read);
                }
                if (!request.isWriteOnly() && state.version() > request.snapshot()) {
                    throw decline(request, records, "row " + Bytes.toStringBinary(row.getRow()) + " has a write"
                            + " committed at " + state.version() + ", after the transaction's snapshot "
                            + request.snapshot());
                }
                floor = Math.max(floor, state.version());
            }
            String startTaken = request.isWriteOnly() ? null : cellsAtSnapshot(anchor, request.snapshot());
            if (startTaken != null) {
                throw decline(request, records, startTaken);
            }
            if (!request.isWriteOnly() && region.binding().collectsGarbage()) {
                // After the rows were read: a compaction whose files they saw raised the horizon before.
                region.horizon().check(request.snapshot(), region.commitTable());
            }
            if (request.freshTimestamp() != Timestamps.NONE) {
                clock.acceptFreshTimestamp(request.freshTimestamp(), request.incarnation());
            }
            if (!request.isWriteOnly() && request.snapshot() < clock.openedBefore()) {
                throw decline(request, records, "the region opened after the transaction began (a move, a split, a"
                        + " restart, or a schema change, whose fence only the TSO knows)");
            }
            long version = clock.mint(floor);
            try {
                write(request, records, version);
            } finally {
                clock.release(version);
            }
            region.metrics().singleRegionCommitted();
            return version;
        } finally {
            for (int i = locks.size() - 1; i >= 0; i--) {
                locks.get(i).release();
            }
        }
    }

    /** The answer to a request whose key already ran on the anchor row: its commit, or its recorded refusal. */
    private static long alreadyAnswered(SingleRegionCommitRequest request, OperationRecord done) throws IOException {
        IdempotencyKey key = request.idempotencyKey();
        if (done.operation() != Operation.SINGLE_REGION_COMMIT) {
            throw new DoNotRetryIOException("single-region commit (" + key + ") refused: its idempotency key belongs"
                    + " to a " + done.operation() + " that already ran; a client must not reuse a key");
        }
        if (done.sequence() > key.sequence()) {
            throw new StaleFastPathOperationException("single-region commit (" + key + ") refused: operation "
                    + done.sequence() + " of the same stream already ran on row "
                    + Bytes.toStringBinary(request.anchorRow()) + ", so this is an old attempt its client gave up on;"
                    + " nothing was executed");
        }
        if (!done.applied()) {
            throw new SingleRegionCommitDeclinedException("single-region commit of " + request.transaction()
                    + " (" + key + ") was declined before; commit it through the TSO");
        }
        return done.version();
    }

    /**
     * Null when the anchor row holds no cell at the snapshot's version, where the start mark goes; otherwise why the
     * commit declines. A transaction that commits in its region never sent a write (its writes were kept until
     * commit), so a cell there is another writer's, one that began at the timestamp this request claims as its own:
     * a start mark over it would make that writer's cell look committed (an aborted writer's leftover, say).
     * A writer that begins at that timestamp later cannot write the row: rule (b) of the fast path refuses its
     * tentative write, since the row holds this commit's version, above its start.
     */
    private @Nullable String cellsAtSnapshot(byte[] anchor, long snapshot) throws IOException {
        Get atSnapshot = new Get(anchor);
        atSnapshot.setTimestamp(snapshot);
        Result found = store.get(atSnapshot);
        return found.isEmpty() ? null : "row " + Bytes.toStringBinary(anchor) + " holds cells at the transaction's"
                + " start timestamp " + snapshot + ", written by another writer claiming that start";
    }

    /** Null when every row is in this region, the one the client located them in; otherwise why not. */
    private static @Nullable String outsideRegion(RegionInfo info, SingleRegionCommitRequest request) {
        if (!info.getEncodedName().equals(request.region())) {
            return "the rows were located in region " + request.region() + ", but this is region "
                    + info.getEncodedName() + " (the region split, merged or was re-created)";
        }
        for (Put row : request.rows()) {
            if (!info.containsRow(row.getRow())) {
                return "row " + Bytes.toStringBinary(row.getRow()) + " is not in region " + info.getEncodedName();
            }
        }
        return null;
    }

    /** Records the refusal under the request's key, so no attempt of it ever commits; the exception to throw. */
    private SingleRegionCommitDeclinedException decline(SingleRegionCommitRequest request,
            RowOperationRecords records, @Nullable String why) throws IOException {
        OperationRecord refusal = new OperationRecord(Operation.SINGLE_REGION_COMMIT,
                request.idempotencyKey().sequence(), EnvironmentEdgeManager.currentTime(), 0, false, 0);
        Put put = new Put(request.anchorRow());
        List<Mutation> mutations = new ArrayList<>();
        mutations.add(put);
        addRecord(put, refusal, request.idempotencyKey(), records, mutations);
        region.region().mutateRowsWithLocks(mutations, List.of(request.anchorRow()), HConstants.NO_NONCE,
                HConstants.NO_NONCE);
        region.metrics().singleRegionCommitDeclined();
        return new SingleRegionCommitDeclinedException("single-region commit of " + request.transaction()
                + " declined: " + why + "; commit it through the TSO");
    }

    /**
     * Writes every row at {@code version} with its shadow cells, the start mark (not for a write-only request) and the
     * operation record, atomically.
     */
    private void write(SingleRegionCommitRequest request, RowOperationRecords records, long version)
            throws IOException {
        byte[] commit = CellEncoding.encodeCommitTimestamp(version);
        List<Mutation> mutations = new ArrayList<>();
        List<byte[]> rows = new ArrayList<>();
        for (Put tentative : request.rows()) {
            Put committed = new Put(tentative.getRow());
            committed.setDurability(tentative.getDurability());
            for (Map.Entry<byte[], List<Cell>> family : tentative.getFamilyCellMap().entrySet()) {
                Set<byte[]> columns = new TreeSet<>(Bytes.BYTES_COMPARATOR);
                for (Cell c : family.getValue()) {
                    byte[] q = CellUtil.cloneQualifier(c);
                    committed.addColumn(family.getKey(), q, version, CellUtil.cloneValue(c));
                    columns.add(CellEncoding.isTombstoneQualifier(q, 0, q.length)
                            ? CellEncoding.userQualifier(q, 0, q.length) : q);
                }
                for (byte[] q : columns) {
                    committed.addColumn(family.getKey(), CellEncoding.shadowQualifier(q), version, commit);
                }
            }
            mutations.add(committed);
            rows.add(tentative.getRow());
        }
        Put anchor = (Put) mutations.get(0);
        if (!request.isWriteOnly()) {
            Cell first = anchor.getFamilyCellMap().firstEntry().getValue().get(0);
            byte[] markedColumn = CellUtil.cloneQualifier(first);
            if (CellEncoding.isMetadataQualifier(markedColumn)) {
                markedColumn = CellEncoding.userQualifier(markedColumn, 0, markedColumn.length);
            }
            anchor.addColumn(CellUtil.cloneFamily(first), CellEncoding.shadowQualifier(markedColumn),
                    request.snapshot(), commit);
        }
        OperationRecord done = new OperationRecord(Operation.SINGLE_REGION_COMMIT,
                request.idempotencyKey().sequence(), EnvironmentEdgeManager.currentTime(), version, true, 0);
        addRecord(anchor, done, request.idempotencyKey(), records, mutations);
        region.region().mutateRowsWithLocks(mutations, rows, HConstants.NO_NONCE, HConstants.NO_NONCE);
    }

    /**
     * Adds the stream's record to the anchor row's Put, in the table's first family as the fast path keeps it, and
     * the removal of records of other streams that expired.
     */
    private void addRecord(Put anchor, OperationRecord record, IdempotencyKey key, RowOperationRecords records,
            List<Mutation> mutations) {
        anchor.addColumn(region.region().getTableDescriptor().getColumnFamilies()[0].getName(), key.recordQualifier(),
                CellEncoding.OPERATION_RECORD_TIMESTAMP, record.encode());
        Delete expired = records.expired(record.writtenAtMillis() - settings.recordTtlMillis(), key);
        if (!expired.isEmpty()) {
            expired.setDurability(anchor.getDurability());
            mutations.add(expired);
        }
    }
}
