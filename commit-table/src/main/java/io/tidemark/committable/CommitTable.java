package io.tidemark.committable;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes commit records. Commit and invalidation are both "put if absent" on the same column, so
 * whichever reaches the region server first wins and the other learns it lost. Thread-safe: every call borrows a
 * {@link Table} from the shared {@link Connection}.
 */
public final class CommitTable {

    private final Connection connection;
    private final TableName tableName;
    private final CommitTableSchema schema;

    public CommitTable(Connection connection, TidemarkConfig config) {
        this(connection, TableName.valueOf(config.getString(TidemarkConfig.COMMIT_TABLE,
                TidemarkConfig.COMMIT_TABLE_DEFAULT)), new CommitTableSchema(config.getInt(
                TidemarkConfig.COMMIT_TABLE_REGIONS, TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1,
                CommitTableSchema.MAX_BUCKETS)));
    }

    public CommitTable(Connection connection, TableName tableName, CommitTableSchema schema) {
        this.connection = connection;
        this.tableName = tableName;
        this.schema = schema;
    }

    public TableName tableName() {
        return tableName;
    }

    public CommitTableSchema schema() {
        return schema;
    }

    /** What the commit table says about {@code startTimestamp}. */
    public CommitState lookup(long startTimestamp) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            Result r = table.get(new Get(schema.rowKey(startTimestamp))
                    .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER));
            return CommitTableSchema.decode(r.getValue(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER));
        }
    }

    /** Writes the commit record unless a reader invalidated the transaction first; true when the commit won. */
    public boolean tryCommit(CommitRecord record) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            return table.checkAndMutate(commitIfAbsent(record)).isSuccess();
        }
    }

    /**
     * Writes many commit records in one round trip (one multi-request per region server); element i of the result
     * says whether record i won against invalidation.
     */
    public boolean[] tryCommitAll(List<CommitRecord> records) throws IOException {
        boolean[] won = new boolean[records.size()];
        if (records.isEmpty()) {
            return won;
        }
        List<CheckAndMutate> operations = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            operations.add(commitIfAbsent(record));
        }
        try (Table table = connection.getTable(tableName)) {
            List<CheckAndMutateResult> results = table.checkAndMutate(operations);
            for (int i = 0; i < won.length; i++) {
                won[i] = results.get(i).isSuccess();
            }
        }
        return won;
    }

    /**
     * Marks the transaction as never committed, unless it committed first. Returns the state that won: either
     * {@link CommitState#invalidated()} or the writer's commit.
     */
    public CommitState invalidate(long startTimestamp) throws IOException {
        byte[] row = schema.rowKey(startTimestamp);
        CheckAndMutate invalidate = CheckAndMutate.newBuilder(row)
                .ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER)
                .build(new Put(row).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        CommitTableSchema.INVALIDATED_VALUE));
        try (Table table = connection.getTable(tableName)) {
            if (table.checkAndMutate(invalidate).isSuccess()) {
                return CommitState.invalidated();
            }
        }
        return lookup(startTimestamp);
    }

    /**
     * Removes an invalidation that turned out to be wrong: the writer had committed and already finished its
     * post-commit (shadow cells written, record deleted) when the reader invalidated. Only an invalidation marker is
     * removed, never a commit record.
     */
    public void undoInvalidation(long startTimestamp) throws IOException {
        byte[] row = schema.rowKey(startTimestamp);
        CheckAndMutate undo = CheckAndMutate.newBuilder(row)
                .ifEquals(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        CommitTableSchema.INVALIDATED_VALUE)
                .build(new Delete(row));
        try (Table table = connection.getTable(tableName)) {
            table.checkAndMutate(undo);
        }
    }

    /** Deletes the record of {@code startTimestamp}, committed or invalidated. */
    public void delete(long startTimestamp) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            table.delete(new Delete(schema.rowKey(startTimestamp)));
        }
    }

    /** Deletes the records of many transactions in one round trip. */
    public void deleteAll(List<Long> startTimestamps) throws IOException {
        if (startTimestamps.isEmpty()) {
            return;
        }
        List<Delete> deletes = new ArrayList<>(startTimestamps.size());
        for (long ts : startTimestamps) {
            deletes.add(new Delete(schema.rowKey(ts)));
        }
        try (Table table = connection.getTable(tableName)) {
            table.delete(deletes);
        }
    }

    /** The last low watermark the TSO persisted, or 0 when none was. */
    public long readLowWatermark() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            byte[] value = table.get(new Get(CommitTableSchema.LOW_WATERMARK_ROW)
                    .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER))
                    .getValue(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER);
            return value == null ? 0L : Bytes.toLong(value);
        }
    }

    /** Persists the low watermark; only the TSO calls this, and only with increasing values. */
    public void writeLowWatermark(long lowWatermark) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            table.put(new Put(CommitTableSchema.LOW_WATERMARK_ROW).addColumn(CommitTableSchema.FAMILY,
                    CommitTableSchema.LOW_WATERMARK_QUALIFIER, Bytes.toBytes(lowWatermark)));
        }
    }

    private CheckAndMutate commitIfAbsent(CommitRecord record) {
        byte[] row = schema.rowKey(record.startTimestamp());
        return CheckAndMutate.newBuilder(row)
                .ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER)
                .build(new Put(row).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        Bytes.toBytes(record.commitTimestamp())));
    }
}
