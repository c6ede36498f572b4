package io.tidemark.committable;

import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

import java.io.IOException;

/**
 * Creates the commit table, pre-split into one region per salt bucket and recording its buckets in
 * {@link CommitTableSchema#BUCKETS_ATTRIBUTE}, when it does not exist yet; with
 * {@code tidemark.commit-table.guard} it also attaches the commit-record guard coprocessor. Created or found, the
 * table's buckets are then copied into its layout row ({@link CommitTableSchema#LAYOUT_ROW}), where processes that
 * must not need the master read them.
 */
public final class CommitTableAdmin {

    private CommitTableAdmin() {
    }

    /**
     * @throws CommitTableMismatchException when the table exists with other salt buckets than {@code settings} say,
     *         or records none
     */
    public static void createIfMissing(Admin admin, CommitTableSettings settings) throws IOException {
        TableName name = settings.tableName();
        createNamespaceIfMissing(admin, name.getNamespaceAsString());
        if (!admin.tableExists(name)) {
            create(admin, settings);
        }
        new HBaseCommitTable(admin.getConnection(), settings).recordLayout();
    }

    private static void create(Admin admin, CommitTableSettings settings) throws IOException {
        TableName name = settings.tableName();
        CommitTableSchema schema = settings.schema();
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CommitTableSchema.FAMILY)
                        .setMaxVersions(1)
                        .setInMemory(true)
                        .build())
                .setValue(CommitTableSchema.BUCKETS_ATTRIBUTE, String.valueOf(schema.buckets()));
        if (settings.guard()) {
            descriptor.setCoprocessor(CommitTableSchema.GUARD_COPROCESSOR);
        }
        try {
            if (schema.buckets() == 1) {
                admin.createTable(descriptor.build());
            } else {
                admin.createTable(descriptor.build(), schema.splitKeys());
            }
        } catch (TableExistsException raced) {
            // Another TSO or tool created it between our check and our create: the table we wanted exists.
        }
    }

    /** Creates {@code namespace} unless it is HBase's default namespace or already exists. */
    public static void createNamespaceIfMissing(Admin admin, String namespace) throws IOException {
        if (NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR.equals(namespace)) {
            return;
        }
        for (NamespaceDescriptor existing : admin.listNamespaceDescriptors()) {
            if (existing.getName().equals(namespace)) {
                return;
            }
        }
        try {
            admin.createNamespace(NamespaceDescriptor.create(namespace).build());
        } catch (NamespaceExistException raced) {
            // Created concurrently by another process: fine.
        }
    }
}
