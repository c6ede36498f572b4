package io.tidemark.client;

import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The tentative cells of one transaction that were not sent to HBase yet (docs/architecture.md, "Write buffering").
 * Each put or delete of the transaction becomes the tentative cells it always did (data cells and tombstones at the
 * transaction's write version, {@link TentativeWriter}), kept here per table and row: a later cell of the same column,
 * kind and version replaces the earlier one, as HBase would keep the later write. They leave the buffer together,
 * sorted by row: at commit, or before a read of the transaction that could see them ({@link #take}), so that every
 * read finds the transaction's own writes in HBase, exactly as when each write was sent at once. Thread-safe: the
 * operations of an {@code AsyncTTable} share it.
 */
final class WriteBuffer {

    /** Cells' bytes are counted with this much on top, for keys and bookkeeping. */
    private static final int CELL_OVERHEAD = 48;

    private final long limitBytes;
    private final Map<TableName, NavigableMap<byte[], BufferedRow>> tables = new LinkedHashMap<>();
    private long bytes;
    private boolean sentAny;

    /** @param limitBytes most bytes kept before the caller should send them ({@link #isFull}); 0: keep nothing */
    WriteBuffer(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** Whether writes are kept here at all; when not, each write is sent at once. */
    boolean isEnabled() {
        return limitBytes > 0;
    }

    synchronized void add(TableName table, List<Put> tentative) {
        NavigableMap<byte[], BufferedRow> rows = tables.computeIfAbsent(table,
                t -> new TreeMap<>(Bytes.BYTES_COMPARATOR));
        for (Put put : tentative) {
            BufferedRow row = rows.computeIfAbsent(put.getRow(), BufferedRow::new);
            bytes += row.add(put);
        }
    }

    /**
     * Moves the cells kept at {@link Timestamps#NONE}, before the transaction began (lazy begin), to its start
     * timestamp {@code start}: nothing was kept at any other version yet.
     */
    synchronized void rebase(long start) {
        for (NavigableMap<byte[], BufferedRow> rows : tables.values()) {
            for (BufferedRow row : rows.values()) {
                row.rebase(start);
            }
        }
    }

    /** Whether the kept writes passed the limit: the caller sends them. */
    synchronized boolean isFull() {
        return bytes >= limitBytes;
    }

    synchronized boolean isEmpty() {
        return tables.isEmpty();
    }

    /**
     * Whether any write of the transaction was sent to HBase before commit (a read needed it, or the buffer filled).
     */
    synchronized boolean sentAny() {
        return sentAny;
    }

    /**
     * Takes the rows of {@code table} that {@code scan} could see, to be sent before it: its range with both ends
     * included whatever the scan says (sending a row too many only costs its single-region commit).
     */
    List<Put> takeScanned(TableName table, Scan scan, long start) {
        byte[] low = scan.isReversed() ? scan.getStopRow() : scan.getStartRow();
        byte[] high = scan.isReversed() ? scan.getStartRow() : scan.getStopRow();
        return take(table, low.length == 0 ? null : low, high.length == 0 ? null : high, start);
    }

    /**
     * Takes the rows of {@code table} from {@code from} to {@code to} (both included; null: unbounded), to be sent
     * now, marked with the transaction's start {@code start}.
     */
    synchronized List<Put> take(TableName table, byte @Nullable [] from, byte @Nullable [] to, long start) {
        NavigableMap<byte[], BufferedRow> rows = tables.get(table);
        if (rows == null) {
            return List.of();
        }
        NavigableMap<byte[], BufferedRow> range = rows;
        if (from != null && to != null) {
            range = rows.subMap(from, true, to, true);
        } else if (from != null) {
            range = rows.tailMap(from, true);
        } else if (to != null) {
            range = rows.headMap(to, true);
        }
        List<Put> taken = new ArrayList<>(range.size());
        for (BufferedRow row : range.values()) {
            taken.add(row.toPut(start));
            bytes -= row.bytes;
        }
        range.clear();
        if (rows.isEmpty()) {
            tables.remove(table);
        }
        if (!taken.isEmpty()) {
            sentAny = true;
        }
        return taken;
    }

    /** Takes every kept row, per table, to be sent now. */
    synchronized Map<TableName, List<Put>> takeAll(long start) {
        Map<TableName, List<Put>> all = contents(start);
        tables.clear();
        bytes = 0;
        if (!all.isEmpty()) {
            sentAny = true;
        }
        return all;
    }

    /** Forgets every kept write: the transaction committed them in one request, or ended without them. */
    synchronized void clear() {
        tables.clear();
        bytes = 0;
    }

    /** Every kept row, per table, sorted by row; the buffer keeps them. */
    synchronized Map<TableName, List<Put>> contents(long start) {
        Map<TableName, List<Put>> all = new LinkedHashMap<>();
        for (Map.Entry<TableName, NavigableMap<byte[], BufferedRow>> t : tables.entrySet()) {
            List<Put> rows = new ArrayList<>(t.getValue().size());
            for (BufferedRow row : t.getValue().values()) {
                rows.add(row.toPut(start));
            }
            all.put(t.getKey(), rows);
        }
        return all;
    }

    /** The kept cells of one row: the newest of each (family, qualifier, version), and the strongest durability. */
    private static final class BufferedRow {
        private final byte[] row;
        private final NavigableMap<CellKey, byte[]> cells = new TreeMap<>();
        private @Nullable Durability durability;
        private long bytes;

        BufferedRow(byte[] row) {
            this.row = row;
        }

        /** Adds the Put's cells; returns how many bytes the row grew by. */
        long add(Put put) {
            durability = durability == null ? put.getDurability() : stronger(durability, put.getDurability());
            long before = bytes;
            for (List<Cell> family : put.getFamilyCellMap().values()) {
                for (Cell c : family) {
                    CellKey key = new CellKey(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp());
                    byte[] value = CellUtil.cloneValue(c);
                    byte[] replaced = cells.put(key, value);
                    bytes += value.length + (replaced == null
                            ? row.length + key.family.length + key.qualifier.length + CELL_OVERHEAD
                            : -replaced.length);
                }
            }
            return bytes - before;
        }

        void rebase(long start) {
            NavigableMap<CellKey, byte[]> moved = new TreeMap<>();
            for (Map.Entry<CellKey, byte[]> c : cells.entrySet()) {
                CellKey k = c.getKey();
                moved.put(k.version == Timestamps.NONE ? new CellKey(k.family, k.qualifier, start) : k, c.getValue());
            }
            cells.clear();
            cells.putAll(moved);
        }

        Put toPut(long start) {
            Put put = new Put(row);
            put.setDurability(durability);
            FastPathProtocol.markTransaction(put, start);
            for (Map.Entry<CellKey, byte[]> c : cells.entrySet()) {
                put.addColumn(c.getKey().family, c.getKey().qualifier, c.getKey().version, c.getValue());
            }
            return put;
        }

        /**
         * The stronger of two durabilities, so that merging writes never weakens one: the table's default is taken
         * as a synchronous WAL, which it is unless the table says otherwise.
         */
        private static Durability stronger(Durability a, Durability b) {
            return rank(b) > rank(a) ? b : a;
        }

        private static int rank(Durability d) {
            switch (d) {
                case SKIP_WAL:
                    return 0;
                case ASYNC_WAL:
                    return 1;
                case USE_DEFAULT:
                    return 2;
                case SYNC_WAL:
                    return 3;
                default:
                    return 4;
            }
        }
    }

    /** A buffered cell's identity: family, qualifier (user or tombstone), version. */
    private static final class CellKey implements Comparable<CellKey> {
        private final byte[] family;
        private final byte[] qualifier;
        private final long version;

        CellKey(byte[] family, byte[] qualifier, long version) {
            this.family = family;
            this.qualifier = qualifier;
            this.version = version;
        }

        @Override
        public int compareTo(CellKey o) {
            int c = Bytes.compareTo(family, o.family);
            if (c == 0) {
                c = Bytes.compareTo(qualifier, o.qualifier);
            }
            return c != 0 ? c : Long.compare(o.version, version);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CellKey && compareTo((CellKey) o) == 0;
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Arrays.hashCode(family) + Arrays.hashCode(qualifier)) + Long.hashCode(version);
        }
    }
}
