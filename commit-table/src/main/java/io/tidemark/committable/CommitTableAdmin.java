package io.tidemark.committable;

import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.jspecify.annotations.Nullable;

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
        createIfMissing(admin, settings, null);
    }

    /**
     * Like {@link #createIfMissing(Admin, CommitTableSettings)}, and a table it creates names {@code timestampTable}
     * as the one whose keys seal its decisions from the start (what {@link #sealWith} does to a table found): one
     * table creation instead of a creation and a schema change, which would close and reopen every region of the
     * new table.
     */
    public static void createIfMissing(Admin admin, CommitTableSettings settings, @Nullable TableName timestampTable)
            throws IOException {
        TableName name = settings.tableName();
        createNamespaceIfMissing(admin, name.getNamespaceAsString());
        if (!admin.tableExists(name)) {
            create(admin, settings, timestampTable);
        }
        new HBaseCommitTable(admin.getConnection(), settings).recordLayout();
    }

    /**
     * Names {@code timestampTable} as the one whose decision keys seal {@code commitTable}'s decisions
     * ({@link CommitTableSchema#TIMESTAMP_TABLE_ATTRIBUTE}), unless it is named already; from then on the
     * commit-record guard lets in only what those keys sealed (docs/security.md). Run by every TSO when it is built,
     * for a table created before without the name.
     *
     * @throws CommitTableMismatchException when the commit table is sealed by another timestamp table's keys
     */
    public static void sealWith(Admin admin, TableName commitTable, TableName timestampTable) throws IOException {
        TableDescriptor current = admin.getDescriptor(commitTable);
        String named = current.getValue(CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE);
        if (named != null && !named.trim().isEmpty()) {
            if (!TableName.valueOf(named.trim()).equals(timestampTable)) {
                throw new CommitTableMismatchException("commit table " + commitTable + " is sealed by the TSOs of"
                        + " timestamp table " + named.trim() + " (attribute "
                        + CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE
                        + "), but this TSO uses " + timestampTable + ": two clusters of TSOs cannot share a commit"
                        + " table; set tidemark.timestamp-table.name=" + named.trim());
            }
            return;
        }
        admin.modifyTable(TableDescriptorBuilder.newBuilder(current)
                .setValue(CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE, timestampTable.getNameAsString()).build());
    }

    private static void create(Admin admin, CommitTableSettings settings, @Nullable TableName timestampTable)
            throws IOException {
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
        if (timestampTable != null) {
            descriptor.setValue(CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE, timestampTable.getNameAsString());
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

    /**
     * Creates {@code namespace} unless it is HBase's default namespace or already exists. Looks by name: with HBase
     * authorization on, the list of namespace descriptors leaves out those the caller may not administer, as the TSO
     * may not the namespace an administrator created for it (docs/operations.md, step 4).
     */
    public static void createNamespaceIfMissing(Admin admin, String namespace) throws IOException {
        if (NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR.equals(namespace)) {
            return;
        }
        for (String existing : admin.listNamespaces()) {
            if (existing.equals(namespace)) {
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
