package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.tidemark.testing.TestCluster.F;

/**
 * The column the checkpoint tests ({@link CheckpointTest}, {@link CheckpointRecoveryTest}) write, {@code f:q} of rows
 * {@code k0}, {@code k1}, ..., and what they read of a table's stored cells.
 */
final class CheckpointCells {

    static final byte[] Q = Bytes.toBytes("q");

    private CheckpointCells() {
    }

    static Put put(byte[] row, String value) {
        return new Put(row).addColumn(F, Q, Bytes.toBytes(value));
    }

    static byte[] key(int k) {
        return Bytes.toBytes("k" + k);
    }

    /** Every stored cell of the table, every version, outside any transaction. */
    static List<Cell> rawCells(TableName name) throws IOException {
        List<Cell> cells = new ArrayList<>();
        try (Table raw = TestCluster.connection().getTable(name);
             ResultScanner rows = raw.getScanner(new Scan().readAllVersions())) {
            for (Result r : rows) {
                cells.addAll(List.of(r.rawCells()));
            }
        }
        return cells;
    }

    /** The versions of the table's shadow cells: the writes known committed. */
    static Set<Long> shadowCellVersions(TableName name) throws IOException {
        Set<Long> versions = new TreeSet<>();
        for (Cell c : rawCells(name)) {
            byte[] q = CellUtil.cloneQualifier(c);
            if (CellEncoding.isShadowQualifier(q, 0, q.length)) {
                versions.add(c.getTimestamp());
            }
        }
        return versions;
    }
}
