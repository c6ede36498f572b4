package io.tidemark.coprocessor.fastpath;

import io.tidemark.committable.CommitTable;
import io.tidemark.coprocessor.RegionVersionStore;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathProtocol.Operation;
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
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableSet;

/**
 * Runs one fast-path operation inside the region server (docs/fast-path.md, "Operations"). Writes hold the row's
 * exclusive lock from reading the row until its new cells are visible: read the committed row, abort on an undecided
 * writer, check the operation's condition, mint a version, write data cells (or tombstones) and their shadow cells
 * in one atomic row mutation.
 */
final class FastPathExecutor {

    private final Region region;
    private final VersionStore store;
    private final RegionClock clock;
    private final CommitTable commitTable;

    FastPathExecutor(Region region, RegionClock clock, CommitTable commitTable) {
        this.region = region;
        this.store = new RegionVersionStore(region);
        this.clock = clock;
        this.commitTable = commitTable;
    }

    /** The answer's cells: user cells plus the metadata cells of {@link FastPathProtocol}, in HBase order. */
    List<Cell> execute(Get request) throws IOException {
        Operation op = Operation.fromCode(request.getAttribute(FastPathProtocol.OPERATION));
        byte[] row = request.getRow();
        if (!op.writes()) {
            CommittedRow state = CommittedRow.read(store, commitTable, row);
            if (op == Operation.READ_FOR_UPDATE) {
                state.requireNoPendingWriter(row, "read for update");
            }
            List<Cell> answer = requested(request, state.values());
            answer.add(meta(row, FastPathProtocol.VERSION_QUALIFIER, Bytes.toBytes(state.version())));
            return sorted(answer);
        }
        long fresh = FastPathProtocol.longAttribute(request, FastPathProtocol.FRESH_TIMESTAMP, Timestamps.NONE);
        if (fresh != Timestamps.NONE) {
            if (!Timestamps.isTsoTimestamp(fresh)) {
                throw new DoNotRetryIOException(FastPathProtocol.FRESH_TIMESTAMP + " must be a TSO timestamp (a"
                        + " positive multiple of " + Timestamps.TSO_STEP + "), was " + fresh);
            }
            clock.acceptFreshTimestamp(fresh);
        }
        long session = FastPathProtocol.longAttribute(request, FastPathProtocol.SESSION, Timestamps.NONE);
        Region.RowLock lock = region.getRowLock(row, false);
        try {
            CommittedRow state = CommittedRow.read(store, commitTable, row);
            state.requireNoPendingWriter(row, op.name().toLowerCase(Locale.ROOT).replace('_', ' '));
            switch (op) {
                case WRITE:
                    return write(row, state, session, mutation(request));
                case CONDITIONAL_WRITE:
                    return conditionalWrite(request, row, state, session);
                case CHECK_AND_MUTATE:
                    return checkAndMutate(request, row, state, session);
                case INCREMENT:
                    return increment(request, row, state, session);
                default:
                    throw new IllegalStateException("not a write: " + op);
            }
        } finally {
            lock.release();
        }
    }

    private List<Cell> conditionalWrite(Get request, byte[] row, CommittedRow state, long session)
            throws IOException {
        long expected = FastPathProtocol.longAttribute(request, FastPathProtocol.EXPECTED_VERSION, -1);
        if (expected < 0) {
            throw new DoNotRetryIOException("a conditional write needs attribute "
                    + FastPathProtocol.EXPECTED_VERSION + " (the version returned by read-for-update)");
        }
        if (state.version() != expected) {
            throw new FastPathConflictException("conditional write of row " + Bytes.toStringBinary(row) + " aborted:"
                    + " the row was written at version " + state.version() + " after version " + expected
                    + " was read; read it again and retry");
        }
        return write(row, state, session, mutation(request));
    }

    private List<Cell> checkAndMutate(Get request, byte[] row, CommittedRow state, long session)
            throws IOException {
        byte[] family = request.getAttribute(FastPathProtocol.CHECK_FAMILY);
        byte[] qualifier = request.getAttribute(FastPathProtocol.CHECK_QUALIFIER);
        if (family == null || qualifier == null) {
            throw new DoNotRetryIOException("check-and-mutate needs attributes " + FastPathProtocol.CHECK_FAMILY
                    + " and " + FastPathProtocol.CHECK_QUALIFIER);
        }
        byte[] expected = request.getAttribute(FastPathProtocol.CHECK_VALUE);
        Cell current = state.value(family, qualifier);
        boolean matches = expected == null ? current == null
                : current != null && CellUtil.matchingValue(current, expected);
        if (!matches) {
            List<Cell> answer = new ArrayList<>();
            answer.add(meta(row, FastPathProtocol.VERSION_QUALIFIER, Bytes.toBytes(state.version())));
            answer.add(meta(row, FastPathProtocol.APPLIED_QUALIFIER, new byte[] {0}));
            return sorted(answer);
        }
        List<Cell> answer = write(row, state, session, mutation(request));
        answer.add(meta(row, FastPathProtocol.APPLIED_QUALIFIER, new byte[] {1}));
        return sorted(answer);
    }

    private List<Cell> increment(Get request, byte[] row, CommittedRow state, long session) throws IOException {
        Map<byte[], NavigableSet<byte[]>> columns = request.getFamilyMap();
        if (columns.size() != 1 || columns.values().iterator().next() == null
                || columns.values().iterator().next().size() != 1) {
            throw new DoNotRetryIOException("an increment names exactly one column (family and qualifier)");
        }
        byte[] family = columns.keySet().iterator().next();
        byte[] qualifier = columns.get(family).first();
        long delta = FastPathProtocol.longAttribute(request, FastPathProtocol.DELTA, 0);
        Cell current = state.value(family, qualifier);
        long value = delta;
        if (current != null) {
            if (current.getValueLength() != Bytes.SIZEOF_LONG) {
                throw new DoNotRetryIOException("cannot increment " + Bytes.toStringBinary(family) + ":"
                        + Bytes.toStringBinary(qualifier) + " of row " + Bytes.toStringBinary(row) + ": its value has "
                        + current.getValueLength() + " bytes, a counter has 8 (a big-endian long)");
            }
            value += Bytes.toLong(current.getValueArray(), current.getValueOffset());
        }
        byte[] encoded = Bytes.toBytes(value);
        List<Cell> answer = write(row, state, session, new Put(row).addColumn(family, qualifier, encoded));
        long version = Bytes.toLong(CellUtil.cloneValue(answer.get(0)));
        answer.add(new KeyValue(row, family, qualifier, version, encoded));
        return sorted(answer);
    }

    /** Commits the user's Put or Delete at a newly minted version; the answer holds the version cell first. */
    private List<Cell> write(byte[] row, CommittedRow state, long session, Mutation user) throws IOException {
        checkUserMutation(row, user);
        long version = clock.mint(Math.max(state.version(), session));
        try {
            Put put = user instanceof Put ? committedPut((Put) user, version) : committedDelete((Delete) user, state,
                    version);
            if (!put.isEmpty()) {
                region.put(put);
            }
        } finally {
            clock.release(version);
        }
        List<Cell> answer = new ArrayList<>();
        answer.add(meta(row, FastPathProtocol.VERSION_QUALIFIER, Bytes.toBytes(version)));
        return answer;
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

    private static Mutation mutation(Get request) throws IOException {
        return FastPathProtocol.decodeMutation(request.getAttribute(FastPathProtocol.MUTATION));
    }

    private static void checkUserMutation(byte[] row, Mutation m) throws DoNotRetryIOException {
        if (!Bytes.equals(row, m.getRow())) {
            throw new DoNotRetryIOException("the mutation's row " + Bytes.toStringBinary(m.getRow())
                    + " differs from the request's row " + Bytes.toStringBinary(row));
        }
        if (m.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
            throw new DoNotRetryIOException("fast-path writes take no user timestamp: the version is minted");
        }
        for (List<Cell> cells : m.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                if (c.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                    throw new DoNotRetryIOException("fast-path writes take no user timestamp: the version is minted");
                }
                if (c.getType() != Cell.Type.DeleteFamily
                        && CellEncoding.isMetadataQualifier(CellUtil.cloneQualifier(c))) {
                    throw new DoNotRetryIOException("qualifier " + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
                            + " ends with a suffix Tidemark reserves for its metadata (\\x00tm.s or \\x00tm.d)");
                }
            }
        }
    }

    /** The committed values the Get asks for: whole families, single columns, or (no family) the whole row. */
    private static List<Cell> requested(Get get, List<Cell> values) {
        Map<byte[], NavigableSet<byte[]>> families = get.getFamilyMap();
        List<Cell> answer = new ArrayList<>();
        for (Cell c : values) {
            if (families.isEmpty()) {
                answer.add(c);
                continue;
            }
            for (Map.Entry<byte[], NavigableSet<byte[]>> f : families.entrySet()) {
                if (CellUtil.matchingFamily(c, f.getKey()) && (f.getValue() == null || f.getValue().isEmpty()
                        || f.getValue().contains(CellUtil.cloneQualifier(c)))) {
                    answer.add(c);
                }
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
