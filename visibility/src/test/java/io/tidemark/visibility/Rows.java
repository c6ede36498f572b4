package io.tidemark.visibility;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;

/** Writes stored versions the way writers do, and reads rows the way readers do, for the visibility tests. */
final class Rows {

    static final long S = Timestamps.TSO_STEP;
    static final byte[] ROW = Bytes.toBytes("row");
    static final byte[] F = Bytes.toBytes("f");

    private Rows() {
    }

    static void data(VersionStore store, byte[] row, String qualifier, long version, String value)
            throws IOException {
        store.put(new Put(row).addColumn(F, Bytes.toBytes(qualifier), version, Bytes.toBytes(value)));
    }

    static void deletion(VersionStore store, byte[] row, String qualifier, long version) throws IOException {
        store.put(new Put(row).addColumn(F, CellEncoding.tombstoneQualifier(Bytes.toBytes(qualifier)), version,
                CellEncoding.TOMBSTONE_DELETE));
    }

    static void shadow(VersionStore store, byte[] row, String qualifier, long version, long commit)
            throws IOException {
        store.put(new Put(row).addColumn(F, CellEncoding.shadowQualifier(Bytes.toBytes(qualifier)), version,
                CellEncoding.encodeCommitTimestamp(commit)));
    }

    /** The stored versions a snapshot read fetches first: every column of the row, the newest few up to the start. */
    static List<Cell> storedRow(VersionStore store, byte[] row, long snapshot) throws IOException {
        Map<byte[], NavigableSet<byte[]>> all = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        all.put(F, null);
        Get get = new Get(row).setTimeRange(0, snapshot + 1).readVersions(SnapshotQuery.VERSIONS_PER_READ);
        for (Map.Entry<byte[], NavigableSet<byte[]>> family : SnapshotQuery.storedColumns(all).entrySet()) {
            get.addFamily(family.getKey());
        }
        Result r = store.get(get);
        return r.isEmpty() ? List.of() : Arrays.asList(r.rawCells());
    }

    /** The visible cells as "qualifier=value" strings, in HBase order. */
    static String show(List<Cell> cells) {
        StringBuilder s = new StringBuilder();
        for (Cell c : cells) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(Bytes.toString(CellUtil.cloneQualifier(c))).append('=').append(Bytes.toString(
                    CellUtil.cloneValue(c)));
        }
        return s.toString();
    }
}
