package io.tidemark.visibility;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * A {@link VersionStore} in memory with HBase's read semantics for what the read rule asks: families or single
 * columns, a time range, a number of versions per column, newest first, one cell per column and version (a later
 * put at the same version replaces the earlier, as HBase's newest sequence id does). Tests can run an action just
 * before or after a chosen read ({@link #beforeRead}, {@link #afterRead}), to stage what another process does
 * meanwhile.
 */
final class InMemoryVersionStore implements VersionStore {

    private final NavigableSet<Cell> cells = new TreeSet<>(CellComparator.getInstance());
    private final Map<Integer, StagedAction> before = new HashMap<>();
    private final Map<Integer, StagedAction> after = new HashMap<>();
    private int reads;
    private Conversion conversion = Conversion.NONE;

    /** What another process does meanwhile. */
    interface StagedAction {
        void run() throws Exception;
    }

    @Override
    public synchronized Result get(Get get) {
        reads++;
        run(before.remove(reads));
        TimeRange range = get.getTimeRange();
        List<Cell> found = new ArrayList<>();
        Cell column = null;
        int versions = 0;
        for (Cell cell : cells) {
            if (!CellUtil.matchingRows(cell, get.getRow()) || !requested(get, cell) || !range.withinTimeRange(
                    cell.getTimestamp())) {
                continue;
            }
            if (column == null || !CellUtil.matchingColumn(cell, column)) {
                column = cell;
                versions = 0;
            }
            if (versions++ < get.getMaxVersions()) {
                found.add(cell);
            }
        }
        run(after.remove(reads));
        return Result.create(found);
    }

    private static void run(StagedAction action) {
        if (action == null) {
            return;
        }
        try {
            action.run();
        } catch (Exception e) {
            throw new IllegalStateException("a staged action failed", e);
        }
    }

    @Override
    public synchronized void put(Put put) {
        for (List<Cell> family : put.getFamilyCellMap().values()) {
            for (Cell cell : family) {
                if (cell.getTimestamp() == HConstants.LATEST_TIMESTAMP) {
                    throw new IllegalArgumentException("the read rule always writes at an explicit version");
                }
                Cell copy = new KeyValue(CellUtil.cloneRow(cell), CellUtil.cloneFamily(cell),
                        CellUtil.cloneQualifier(cell), cell.getTimestamp(), KeyValue.Type.Put,
                        CellUtil.cloneValue(cell));
                cells.remove(copy);
                cells.add(copy);
            }
        }
    }

    @Override
    public synchronized Conversion conversion() {
        return conversion;
    }

    /** Makes the table one converted at {@code convertedAt} (0: transactional from the start). */
    synchronized void convertedAt(long convertedAt) {
        conversion = Conversion.at(convertedAt);
    }

    /** Removes one stored version of one qualifier (a rolled-back writer tidying up). */
    synchronized void deleteVersion(byte[] row, byte[] family, byte[] qualifier, long version) {
        cells.remove(new KeyValue(row, family, qualifier, version, KeyValue.Type.Put));
    }

    /** How many reads were made so far. */
    synchronized int reads() {
        return reads;
    }

    /** Runs {@code action} just before the {@code nth} read from now reads (1 = the next one). */
    synchronized void beforeRead(int nth, StagedAction action) {
        before.put(reads + nth, action);
    }

    /** Runs {@code action} once the {@code nth} read from now has read, before it answers (1 = the next one). */
    synchronized void afterRead(int nth, StagedAction action) {
        after.put(reads + nth, action);
    }

    private static boolean requested(Get get, Cell cell) {
        Map<byte[], NavigableSet<byte[]>> families = get.getFamilyMap();
        if (families.isEmpty()) {
            return true;
        }
        for (Map.Entry<byte[], NavigableSet<byte[]>> family : families.entrySet()) {
            if (CellUtil.matchingFamily(cell, family.getKey())) {
                return family.getValue() == null || family.getValue().isEmpty()
                        || family.getValue().contains(CellUtil.cloneQualifier(cell));
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Cell c : cells) {
            s.append(Bytes.toStringBinary(CellUtil.cloneRow(c))).append('/').append(
                    Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append('@').append(c.getTimestamp()).append(' ');
        }
        return s.toString();
    }
}
