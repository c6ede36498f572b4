package io.tidemark.chaos.run;

import io.tidemark.chaos.check.StoreImage;
import io.tidemark.chaos.check.StoredVersion;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.workload.ChaosTable;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Reads the store as it is, below Tidemark: every version of every cell of the checked table (data cells, tombstones,
 * shadow cells) with plain HBase scans that no coprocessor resolves, every commit-table record, and the low
 * watermark.
 */
final class StoreCapture {

    private StoreCapture() {
    }

    static StoreImage capture(Connection connection, TableName dataTable, HBaseCommitTable commitTable, KeySpace keys)
            throws IOException {
        StoreImage image = new StoreImage();
        readCells(connection, dataTable, keys, image);
        readCommitRecords(connection, commitTable.tableName(), image);
        image.lowWatermark(commitTable.readLowWatermark());
        return image;
    }

    private static void readCells(Connection connection, TableName dataTable, KeySpace keys, StoreImage image)
            throws IOException {
        Map<String, Parts> versions = new HashMap<>();
        try (Table table = connection.getTable(dataTable);
             ResultScanner scanner = table.getScanner(new Scan().readAllVersions().addFamily(ChaosTable.FAMILY))) {
            for (Result row : scanner) {
                for (Cell c : row.rawCells()) {
                    add(c, keys, versions);
                }
            }
        }
        for (Parts p : versions.values()) {
            image.add(p.key, new StoredVersion(p.version, p.value, p.deleted, p.shadow));
        }
    }

    private static void add(Cell c, KeySpace keys, Map<String, Parts> versions) {
        String row = Bytes.toString(CellUtil.cloneRow(c));
        byte[] q = CellUtil.cloneQualifier(c);
        boolean shadow = CellEncoding.isShadowQualifier(q, 0, q.length);
        boolean tombstone = CellEncoding.isTombstoneQualifier(q, 0, q.length);
        if (!shadow && !tombstone && CellEncoding.isMetadataQualifier(q)) {
            return;
        }
        String column = Bytes.toString(shadow || tombstone ? CellEncoding.userQualifier(q, 0, q.length) : q);
        if (!keys.rows().contains(row) || !keys.columns().contains(column)) {
            return;
        }
        Key key = new Key(row, column);
        long version = c.getTimestamp();
        Parts p = versions.computeIfAbsent(key + "@" + version, k -> new Parts(key, version));
        byte[] value = CellUtil.cloneValue(c);
        if (shadow) {
            p.shadow = CellEncoding.decodeCommitTimestamp(value, 0, value.length);
        } else if (tombstone) {
            p.deleted = CellEncoding.isDeletingTombstone(value, 0, value.length);
        } else {
            p.value = ChaosTable.decode(keys, key, value);
        }
    }

    private static void readCommitRecords(Connection connection, TableName commitTable, StoreImage image)
            throws IOException {
        try (Table table = connection.getTable(commitTable);
             ResultScanner scanner = table.getScanner(new Scan().addColumn(CommitTableSchema.FAMILY,
                     CommitTableSchema.COMMIT_QUALIFIER))) {
            for (Result r : scanner) {
                if (!CommitTableSchema.isRecordRow(r.getRow())) {
                    continue;
                }
                CommitState state = CommitTableSchema.decode(r.getValue(CommitTableSchema.FAMILY,
                        CommitTableSchema.COMMIT_QUALIFIER));
                long start = CommitTableSchema.startTimestampOf(r.getRow());
                image.addCommitRecord(start, state.isCommitted() ? state.commitTimestamp() : StoreImage.INVALIDATED);
            }
        }
    }

    /** The cells of one version of one key, as they are read. */
    private static final class Parts {
        private final Key key;
        private final long version;
        private String value;
        private boolean deleted;
        private long shadow;

        private Parts(Key key, long version) {
            this.key = Objects.requireNonNull(key);
            this.version = version;
        }
    }
}
