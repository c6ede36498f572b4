package io.tidemark.client.admin;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

import java.io.IOException;
import java.util.List;

/**
 * Creates transactional tables, converts existing ones, and checks them (the Java side of
 * {@code ./tidemark table create|enable|check}). A transactional table keeps every version in every family, has no
 * TTL, marks its families {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY}, and has both Tidemark
 * coprocessors attached (docs/coprocessors.md). The compaction coprocessor is told which commit table to read the
 * low watermark from through its coprocessor properties, taken from this admin's configuration.
 */
public final class TidemarkAdmin {

    private final Connection connection;
    private final TidemarkConfig config;
    private final int minVersions;

    public TidemarkAdmin(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.config = config;
        this.minVersions = config.getInt(TidemarkConfig.CLIENT_MIN_VERSIONS,
                TidemarkConfig.CLIENT_MIN_VERSIONS_DEFAULT, 1, Integer.MAX_VALUE);
    }

    /** Creates a new transactional table with the given column families. */
    public void create(TableName table, String... families) throws IOException {
        if (families.length == 0) {
            throw new IllegalArgumentException("a table needs at least one column family; name one or more");
        }
        TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(table);
        for (String family : families) {
            builder.setColumnFamily(transactional(ColumnFamilyDescriptorBuilder.of(family)));
        }
        attachCoprocessors(builder, TableDescriptorBuilder.newBuilder(table).build());
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(builder.build());
        }
    }

    /**
     * Converts an existing table in place (an online schema change; HBase reopens its regions): every family becomes
     * transactional and the coprocessors are attached. Data written outside transactions stays readable only if its
     * versions are already TSO timestamps, so convert tables before putting transactional data into them.
     */
    public void enable(TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = descriptor(admin, table);
            TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(current);
            for (ColumnFamilyDescriptor family : current.getColumnFamilies()) {
                builder.modifyColumnFamily(transactional(family));
            }
            attachCoprocessors(builder, current);
            admin.modifyTable(builder.build());
        }
    }

    /** Every problem of the table, in plain words with its fix; empty when the table is fully transactional. */
    public List<TableProblem> check(TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            return new TransactionalTableInspector(minVersions).problems(descriptor(admin, table));
        }
    }

    private ColumnFamilyDescriptor transactional(ColumnFamilyDescriptor family) {
        return ColumnFamilyDescriptorBuilder.newBuilder(family)
                .setMaxVersions(Math.max(family.getMaxVersions(), minVersions))
                .setTimeToLive(HConstants.FOREVER)
                .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                        TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE)
                .build();
    }

    private void attachCoprocessors(TableDescriptorBuilder builder, TableDescriptor current) throws IOException {
        String jar = config.hadoopConfiguration().getTrimmed(TidemarkConfig.ADMIN_COPROCESSOR_JAR,
                TidemarkConfig.ADMIN_COPROCESSOR_JAR_DEFAULT);
        for (String coprocessor : new String[] {TransactionalTableLayout.SNAPSHOT_OBSERVER,
                TransactionalTableLayout.COMPACTION_OBSERVER}) {
            if (current.hasCoprocessor(coprocessor)) {
                continue;
            }
            CoprocessorDescriptorBuilder cp = CoprocessorDescriptorBuilder.newBuilder(coprocessor)
                    .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY);
            if (!jar.isEmpty()) {
                cp.setJarPath(jar);
            }
            if (coprocessor.equals(TransactionalTableLayout.COMPACTION_OBSERVER)) {
                cp.setProperty(TidemarkConfig.COMMIT_TABLE, config.getString(TidemarkConfig.COMMIT_TABLE,
                        TidemarkConfig.COMMIT_TABLE_DEFAULT));
                cp.setProperty(TidemarkConfig.COMMIT_TABLE_REGIONS, String.valueOf(config.getInt(
                        TidemarkConfig.COMMIT_TABLE_REGIONS, TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1, 255)));
            }
            builder.setCoprocessor(cp.build());
        }
    }

    private static TableDescriptor descriptor(Admin admin, TableName table) throws IOException {
        try {
            return admin.getDescriptor(table);
        } catch (TableNotFoundException e) {
            throw new TableNotFoundException("table " + table.getNameAsString() + " does not exist; create it"
                    + " with TidemarkAdmin.create (./tidemark table create)");
        }
    }
}
