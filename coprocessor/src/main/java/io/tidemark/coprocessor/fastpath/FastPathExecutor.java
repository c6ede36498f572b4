package io.tidemark.coprocessor.fastpath;

import io.tidemark.committable.CommitTable;
import io.tidemark.coprocessor.RegionVersionStore;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import io.tidemark.fastpath.StaleFastPathOperationException;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.CommittedRow;
import io.tidemark.visibility.VersionStore;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;

/**
 * Runs one fast-path operation inside the region server (docs/fast-path.md). Writes hold the row's exclusive lock
 * from reading the row until their new cells are visible: look up the stream's operation record (a re-sent operation
 * answers from it and runs no more), read the committed row, abort on an undecided writer, check the operation's
 * condition, mint a version, then write data cells (or tombstones), their shadow cells and the new operation record
 * in one atomic row mutation. Reads take no lock; a plain read skips undecided writers, once none is left that
 * could commit below the version it answers ({@link CommittedRow#readSettled}).
 */
final class FastPathExecutor {

    private final Region region;
    private final VersionStore store;
    private final RegionClock clock;
    private final CommitTable commitTable;
    private final FastPathSettings settings;

    FastPathExecutor(Region region, RegionClock clock, CommitTable commitTable, FastPathSettings settings) {
        this.region = region;
        this.store = new RegionVersionStore(region);
        this.clock = clock;
        this.commitTable = commitTable;
        this.settings = settings;
    }

    /** The answer's cells: user cells plus the metadata cells of {@link FastPathProtocol}, in HBase order. */
    List<Cell> execute(FastPathRequest request) throws IOException {
        byte[] row = request.row();
        if (!request.operation().writes()) {
            CommittedRow state;
            if (request.operation() == Operation.READ_FOR_UPDATE) {
                state = CommittedRow.read(store, commitTable, row);
                state.requireNoPendingWriter(row, "read for update");
            } else {
                state = CommittedRow.readSettled(store, commitTable, row);
            }
            List<Cell> answer = requested(request, state.values());
            answer.add(meta(row, FastPathProtocol.VERSION_QUALIFIER, Bytes.toBytes(state.version())));
            return sorted(answer);
        }
        settings.checkOperationTimeout(request.operationTimeoutMillis());
        if (request.freshTimestamp() != Timestamps.NONE) {
            clock.acceptFreshTimestamp(request.freshTimestamp(), request.incarnation());
        }
        Region.RowLock lock = region.getRowLock(row, false);
        try {
            Result newestVersions = store.get(CommittedRow.windowRead(row));
            RowOperationRecords records = RowOperationRecords.in(row, newestVersions);
            OperationRecord done = records.latestOf(keyOf(request));
            if (done != null && done.sequence() >= keyOf(request).sequence()) {
                return answer(request, alreadyRun(request, done));
            }
            CommittedRow state = CommittedRow.readLocked(store, commitTable, row, newestVersions);
            state.requireNoPendingWriter(row, request.operation().name().toLowerCase(Locale.ROOT).replace('_', ' '));
            return answer(request, run(request, state, records));
        } finally {
            lock.release();
        }
    }

    /** The idempotency key of a write, which {@link FastPathRequest.Builder#build} requires. */
    private static IdempotencyKey keyOf(FastPathRequest request) {
        return Objects.requireNonNull(request.idempotencyKey(), "a fast-path write has an idempotency key");
    }

    /** The user's Put or Delete of a write other than an increment, which the request's build requires. */
    private static Mutation mutationOf(FastPathRequest request) {
        return Objects.requireNonNull(request.mutation(), "a fast-path write has a mutation");
    }

    /** The recorded result of a re-sent operation; an older operation of the stream is refused. */
    private static OperationRecord alreadyRun(FastPathRequest request, OperationRecord done) throws IOException {
        IdempotencyKey key = keyOf(request);
        if (done.sequence() > key.sequence()) {
            throw new StaleFastPathOperationException("fast-path " + request.operation() + " (" + key + ") of row "
                    + Bytes.toStringBinary(request.row()) + " refused: operation " + done.sequence() + " of the same"
                    + " stream already ran on the row, so this is an old attempt its client gave up on (or the"
                    + " stream's FastPathTable is used by several threads at once); nothing was executed");
        }
        if (done.operation() != request.operation()) {
            throw new DoNotRetryIOException("fast-path " + request.operation() + " (" + key + ") of row "
                    + Bytes.toStringBinary(request.row()) + " refused: its idempotency key belongs to a "
                    + done.operation() + " that already ran; a client must not reuse a key");
        }
        return done;
    }

    private OperationRecord run(FastPathRequest request, CommittedRow state, RowOperationRecords records)
            throws IOException {
        switch (request.operation()) {
            case WRITE:
                return write(request, state, mutationOf(request), records, 0);
            case CONDITIONAL_WRITE:
                if (state.version() != request.expectedVersion()) {
                    throw new FastPathConflictException("conditional write of row "
                            + Bytes.toStringBinary(request.row()) + " aborted: the row was written at version "
                            + state.version() + " after version " + request.expectedVersion() + " was read; read it"
                            + " again and retry");
                }
                return write(request, state, mutationOf(request), records, 0);
            case CHECK_AND_MUTATE:
                if (!checkedValueMatches(request, state)) {
                    OperationRecord notApplied = record(request, state.version(), false, 0);
                    persist(new Put(request.row()), notApplied, keyOf(request), records);
                    return notApplied;
                }
                return write(request, state, mutationOf(request), records, 0);
            case INCREMENT:
                long value = incremented(request, state);
                Put counter = new Put(request.row()).addColumn(request.counterFamily(), request.counterQualifier(),
                        Bytes.toBytes(value));
                return write(request, state, counter, records, value);
            default:
                throw new IllegalStateException("not a write: " + request.operation());
        }
    }

    private static boolean checkedValueMatches(FastPathRequest request, CommittedRow state) {
        Cell current = state.value(Objects.requireNonNull(request.checkFamily()),
                Objects.requireNonNull(request.checkQualifier()));
        byte[] expected = request.checkValue();
        return expected == null ? current == null : current != null && CellUtil.matchingValue(current, expected);
    }

    private static long incremented(FastPathRequest request, CommittedRow state) throws DoNotRetryIOException {
        Cell current = state.value(request.counterFamily(), request.counterQualifier());
        if (current == null) {
            return request.delta();
        }
        if (current.getValueLength() != Bytes.SIZEOF_LONG) {
            throw new DoNotRetryIOException("cannot increment " + Bytes.toStringBinary(request.counterFamily()) + ":"
                    + Bytes.toStringBinary(request.counterQualifier()) + " of row "
                    + Bytes.toStringBinary(request.row()) + ": its value has " + current.getValueLength()
                    + " bytes, a counter has 8 (a big-endian long)");
        }
        return Bytes.toLong(current.getValueArray(), current.getValueOffset()) + request.delta();
    }

    /** Commits the user's Put or Delete at a newly minted version, with the operation's record. */
    private OperationRecord write(FastPathRequest request, CommittedRow state, Mutation user,
            RowOperationRecords records, long counterValue) throws IOException {
        long version = clock.mint(Math.max(state.version(), request.session()));
        try {
            Put cells = user instanceof Put ? committedPut((Put) user, version)
                    : committedDelete((Delete) user, state, version);
            OperationRecord written = record(request, version, true, counterValue);
            persist(cells, written, keyOf(request), records);
            return written;
        } finally {
            clock.release(version);
        }
    }

    private static OperationRecord record(FastPathRequest request, long version, boolean applied,
            long counterValue) {
        return new OperationRecord(request.operation(), keyOf(request).sequence(),
                EnvironmentEdgeManager.currentTime(), version, applied, counterValue);
    }

    /**
     * Writes {@code cells} and the stream's new record in one atomic row mutation, removing the records of streams
     * that expired. The record goes to the table's first family, so a stream has one record per row whichever
     * families its operations write.
     */
    private void persist(Put cells, OperationRecord record, IdempotencyKey key, RowOperationRecords records)
            throws IOException {
        cells.addColumn(region.getTableDescriptor().getColumnFamilies()[0].getName(), key.recordQualifier(),
                CellEncoding.OPERATION_RECORD_TIMESTAMP, record.encode());
        Delete expired = records.expired(record.writtenAtMillis() - settings.recordTtlMillis(), key);
        if (expired.isEmpty()) {
            region.put(cells);
        } else {
            expired.setDurability(cells.getDurability());
            RowMutations both = new RowMutations(cells.getRow());
            both.add(cells);
            both.add(expired);
            region.mutateRow(both);
        }
    }

    /** The answer to a write, from its record: the same whether the operation ran now or earlier. */
    private static List<Cell> answer(FastPathRequest request, OperationRecord record) {
        byte[] row = request.row();
        List<Cell> answer = new ArrayList<>();
        answer.add(meta(row, FastPathProtocol.VERSION_QUALIFIER, Bytes.toBytes(record.version())));
        if (request.operation() == Operation.CHECK_AND_MUTATE) {
            answer.add(meta(row, FastPathProtocol.APPLIED_QUALIFIER, new byte[] {record.applied() ? (byte) 1 : 0}));
        }
        if (request.operation() == Operation.INCREMENT) {
            answer.add(new KeyValue(row, request.counterFamily(), request.counterQualifier(), record.version(),
                    Bytes.toBytes(record.counterValue())));
        }
        return sorted(answer);
    }

    private static Put committedPut(Put user, long version) {
        Put put = new Put(user.getRow());
        put.setDurability(user.getDurability());
        byte[] commit = CellEncoding.encodeCommitTimestamp(version);
        for (Map.Entry<byte[], List<Cell>> f : user.getFamilyCellMap().entrySet()) {
            for (Cell c : f.getValue()) {
                byte[] q = CellUtil.cloneQualifier(c);
                put.addColumn(f.getKey(), q, version, CellUtil.cloneValue(c));
                put.addColumn(f.getKey(), CellEncoding.shadowQualifier(q), version, commit);
            }
        }
        return put;
    }

    /** Tombstones for the deleted columns; family and row deletes cover the columns that have a committed value. */
    private static Put committedDelete(Delete user, CommittedRow state, long version) {
        Put put = new Put(user.getRow());
        put.setDurability(user.getDurability());
        if (user.getFamilyCellMap().isEmpty()) {
            for (Cell c : state.values()) {
                addTombstone(put, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), version);
            }
            return put;
        }
        for (Map.Entry<byte[], List<Cell>> f : user.getFamilyCellMap().entrySet()) {
            for (Cell c : f.getValue()) {
                if (c.getType() == Cell.Type.DeleteFamily) {
                    for (Cell visible : state.values()) {
                        if (CellUtil.matchingFamily(visible, f.getKey())) {
                            addTombstone(put, f.getKey(), CellUtil.cloneQualifier(visible), version);
                        }
                    }
                } else {
                    addTombstone(put, f.getKey(), CellUtil.cloneQualifier(c), version);
                }
            }
        }
        return put;
    }

    private static void addTombstone(Put put, byte[] family, byte[] qualifier, long version) {
        put.addColumn(family, CellEncoding.tombstoneQualifier(qualifier), version, CellEncoding.TOMBSTONE_DELETE);
        put.addColumn(family, CellEncoding.shadowQualifier(qualifier), version,
                CellEncoding.encodeCommitTimestamp(version));
    }

    /** The committed values the request asks for: whole families, single columns, or (none named) the whole row. */
    private static List<Cell> requested(FastPathRequest request, List<Cell> values) {
        Map<byte[], NavigableSet<byte[]>> families = request.columns();
        List<Cell> answer = new ArrayList<>();
        for (Cell c : values) {
            if (families.isEmpty()) {
                answer.add(c);
                continue;
            }
            NavigableSet<byte[]> qualifiers = families.get(CellUtil.cloneFamily(c));
            if (families.containsKey(CellUtil.cloneFamily(c))
                    && (qualifiers == null || qualifiers.contains(CellUtil.cloneQualifier(c)))) {
                answer.add(c);
            }
        }
        return answer;
    }

    private static Cell meta(byte[] row, byte[] qualifier, byte[] value) {
        return new KeyValue(row, FastPathProtocol.META_FAMILY, qualifier, HConstants.LATEST_TIMESTAMP, value);
    }

    private static List<Cell> sorted(List<Cell> cells) {
        cells.sort(CellComparator.getInstance());
        return cells;
    }
}
