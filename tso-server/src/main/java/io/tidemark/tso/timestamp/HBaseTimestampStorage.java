package io.tidemark.tso.timestamp;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.timestamp.TimestampTableSchema;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

import java.io.IOException;

/** The timestamp bound in an HBase table laid out by {@link TimestampTableSchema}. */
public final class HBaseTimestampStorage implements TimestampStorage {

    private final Connection connection;
    private final TableName tableName;

    public HBaseTimestampStorage(Connection connection, TableName tableName) {
        this.connection = connection;
        this.tableName = tableName;
    }

    public TableName tableName() {
        return tableName;
    }

    /** Creates the namespace and the table when they do not exist yet. */
    public void createTableIfMissing() throws IOException {
        try (Admin admin = connection.getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, tableName.getNamespaceAsString());
            if (admin.tableExists(tableName)) {
                return;
            }
            admin.createTable(TableDescriptorBuilder.newBuilder(tableName)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(TimestampTableSchema.FAMILY)
                            .setMaxVersions(1)
                            .build())
                    .build());
        } catch (TableExistsException raced) {
            // Another TSO created it between our check and our create: the table we wanted exists.
        }
    }

    @Override
    public long readBound() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            byte[] value = table.get(new Get(TimestampTableSchema.ROW)
                            .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER))
                    .getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER);
            return value == null ? 0L : TimestampTableSchema.decode(value);
        }
    }

    @Override
    public void recordDecisionKey(DecisionKey key) throws IOException {
        new TimestampTableKeys(connection, tableName).record(key);
    }

    @Override
    public long readEpoch() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            byte[] value = table.get(new Get(TimestampTableSchema.ROW)
                            .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.EPOCH))
                    .getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.EPOCH);
            return value == null ? 0L : TimestampTableSchema.decode(value);
        }
    }

    @Override
    public void advanceBound(long expected, long newBound, long epoch) throws IOException {
        if (newBound <= expected) {
            throw new IllegalArgumentException("the timestamp bound only grows: " + expected + " -> " + newBound);
        }
        CheckAndMutate.Builder condition = CheckAndMutate.newBuilder(TimestampTableSchema.ROW);
        if (expected == 0) {
            condition.ifNotExists(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER);
        } else {
            condition.ifEquals(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER,
                    TimestampTableSchema.encode(expected));
        }
        CheckAndMutate mutation = condition.build(new Put(TimestampTableSchema.ROW)
                .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER,
                        TimestampTableSchema.encode(newBound))
                .addColumn(TimestampTableSchema.FAMILY, TimestampTableSchema.EPOCH,
                        TimestampTableSchema.encode(epoch)));
        try (Table table = connection.getTable(tableName)) {
            if (!table.checkAndMutate(mutation).isSuccess()) {
                throw new TimestampBoundLostException(expected, newBound);
            }
        }
    }
}
