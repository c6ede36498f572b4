package io.tidemark.tso.cluster;

import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.TimestampTableSchema;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/** The cluster settings in the timestamp table's {@code settings} row ({@link TimestampTableSchema}). */
public final class HBaseClusterSettingsStore implements ClusterSettingsStore {

    private final Connection connection;
    private final TableName tableName;

    public HBaseClusterSettingsStore(Connection connection, TableName timestampTable) {
        this.connection = connection;
        this.tableName = timestampTable;
    }

    @Override
    public @Nullable ClusterSettings read() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            Result row = table.get(new Get(TimestampTableSchema.SETTINGS_ROW).addFamily(TimestampTableSchema.FAMILY));
            byte[] mode = row.getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.COMMIT_MODE);
            byte[] level = row.getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.CONFLICT_LEVEL);
            if (mode == null && level == null) {
                return null;
            }
            if (mode == null || level == null) {
                throw new IllegalStateException("the cluster settings in " + tableName + " are incomplete (commit mode "
                        + (mode == null ? "missing" : Bytes.toString(mode)) + ", conflict level "
                        + (level == null ? "missing" : Bytes.toString(level)) + ")");
            }
            try {
                return new ClusterSettings(CommitMode.fromConfigName(Bytes.toString(mode)),
                        ConflictLevel.fromConfigName(Bytes.toString(level)));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("the cluster settings in " + tableName + " are unreadable: "
                        + e.getMessage(), e);
            }
        }
    }

    @Override
    public ClusterSettings initialize(ClusterSettings proposed) throws IOException {
        CheckAndMutate mutation = CheckAndMutate.newBuilder(TimestampTableSchema.SETTINGS_ROW)
                .ifNotExists(TimestampTableSchema.FAMILY, TimestampTableSchema.COMMIT_MODE)
                .build(put(proposed));
        try (Table table = connection.getTable(tableName)) {
            if (table.checkAndMutate(mutation).isSuccess()) {
                return proposed;
            }
        }
        ClusterSettings stored = read();
        if (stored == null) {
            throw new IllegalStateException("the cluster settings in " + tableName
                    + " are neither absent nor readable");
        }
        return stored;
    }

    @Override
    public void overwrite(ClusterSettings settings) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            table.put(put(settings));
        }
    }

    private static Put put(ClusterSettings settings) {
        return new Put(TimestampTableSchema.SETTINGS_ROW)
                .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.COMMIT_MODE,
                        Bytes.toBytes(settings.commitMode().configName()))
                .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.CONFLICT_LEVEL,
                        Bytes.toBytes(settings.conflictLevel().configName()));
    }
}
