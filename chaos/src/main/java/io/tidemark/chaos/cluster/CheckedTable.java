package io.tidemark.chaos.cluster;

import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.workload.ChaosTable;
import io.tidemark.table.TableFeature;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Creates the checked table with every {@link TableFeature} (server-side snapshots, compaction garbage collection,
 * the fast path), as {@link TidemarkAdmin} describes it, pre-split so that scans cross several regions, one of which
 * can never hold a row (a scan must not stop there).
 */
public final class CheckedTable {

    private CheckedTable() {
    }

    /** Split points: every fourth row, plus an empty region just after the middle row. */
    public static List<byte[]> splitPoints(KeySpace keys) {
        List<String> rows = keys.rows();
        List<byte[]> splits = new ArrayList<>();
        int middle = rows.size() / 2 - 1;
        for (int i = 4; i < rows.size(); i += 4) {
            if (i - 1 == middle || i == middle + 1) {
                continue;
            }
            splits.add(Bytes.toBytes(rows.get(i)));
        }
        if (middle >= 0) {
            splits.add(Bytes.toBytes(rows.get(middle) + "a"));
            splits.add(Bytes.toBytes(rows.get(middle) + "b"));
        }
        splits.sort(Bytes.BYTES_COMPARATOR);
        return splits;
    }

    public static void create(Connection connection, TidemarkConfig config, TableName table, KeySpace keys)
            throws IOException {
        TableDescriptor descriptor = new TidemarkAdmin(connection, config).descriptorFor(table,
                List.of(Bytes.toString(ChaosTable.FAMILY)), EnumSet.allOf(TableFeature.class));
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(descriptor, splitPoints(keys).toArray(new byte[0][]));
        }
    }

    public static void drop(Connection connection, TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            if (admin.tableExists(table)) {
                if (admin.isTableEnabled(table)) {
                    admin.disableTable(table);
                }
                admin.deleteTable(table);
            }
        }
    }
}
