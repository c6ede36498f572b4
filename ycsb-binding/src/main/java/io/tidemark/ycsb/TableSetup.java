package io.tidemark.ycsb;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/**
 * Makes sure the YCSB table is there and usable before any client thread starts: created on request (with the
 * family keeping every version, as transactions need), otherwise checked, so a missing table or a family that
 * keeps too few versions stops the run with one clear message instead of failing every operation. In
 * {@code fastpath} mode the table also needs the fast-path coprocessor, told where the commit table is.
 */
final class TableSetup {

    private TableSetup() {
    }

    static void prepare(Connection connection, BindingSettings settings) throws IOException {
        TableName table = settings.table();
        String family = Bytes.toString(settings.family());
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(table)) {
                if (!settings.createTable()) {
                    throw new IOException("table " + table.getNameAsString() + " does not exist; set "
                            + BindingSettings.CREATE_TABLE + "=true to create it, or in the hbase shell: create '"
                            + table.getNameAsString() + "', {NAME => '" + family + "', VERSIONS => "
                            + Integer.MAX_VALUE + "}");
                }
                create(admin, table, settings);
            }
            check(admin.getDescriptor(table), settings);
        }
    }

    private static void create(Admin admin, TableName table, BindingSettings settings) throws IOException {
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(settings.family())
                        .setMaxVersions(Integer.MAX_VALUE)
                        .build());
        if (settings.mode().usesFastPath()) {
            descriptor.setCoprocessor(fastPathCoprocessor(settings.tidemarkConfig()));
        }
        try {
            admin.createTable(descriptor.build());
        } catch (TableExistsException raced) {
            // Another YCSB process created it first: fine, it is checked next like any existing table.
        }
    }

    private static void check(TableDescriptor descriptor, BindingSettings settings) throws IOException {
        String table = descriptor.getTableName().getNameAsString();
        String family = Bytes.toString(settings.family());
        ColumnFamilyDescriptor columnFamily = descriptor.getColumnFamily(settings.family());
        if (columnFamily == null) {
            throw new IOException("table " + table + " has no column family '" + family + "'; set "
                    + BindingSettings.COLUMN_FAMILY + " to one of its families, or add it in the hbase shell: alter '"
                    + table + "', {NAME => '" + family + "', VERSIONS => " + Integer.MAX_VALUE + "}");
        }
        if (!settings.mode().isTransactional()) {
            return;
        }
        int required = settings.tidemarkConfig().getInt(TidemarkConfig.CLIENT_MIN_VERSIONS,
                TidemarkConfig.CLIENT_MIN_VERSIONS_DEFAULT, 1, Integer.MAX_VALUE);
        if (columnFamily.getMaxVersions() < required) {
            throw new IOException("table " + table + " cannot hold transactional data: column family '" + family
                    + "' keeps " + columnFamily.getMaxVersions() + " version(s), Tidemark needs " + required + ". Fix"
                    + " it in the hbase shell: alter '" + table + "', {NAME => '" + family + "', VERSIONS => "
                    + required + "} (or run with " + BindingMode.PROPERTY + "=raw)");
        }
        if (settings.mode().usesFastPath() && !descriptor.hasCoprocessor(TransactionalTableLayout.FAST_PATH_OBSERVER)) {
            throw new IOException("table " + table + " has no fast-path coprocessor, which " + BindingMode.PROPERTY
                    + "=fastpath needs. Attach it in the hbase shell: alter '" + table + "', METHOD => 'table_att',"
                    + " 'coprocessor' => '" + shellSpec(fastPathCoprocessor(settings.tidemarkConfig())) + "' (or"
                    + " drop the table and run the load with " + BindingSettings.CREATE_TABLE + "=true, which"
                    + " creates it with the coprocessor; docs/fast-path.md)");
        }
    }

    /**
     * The fast-path observer, first in the chain (docs/fast-path.md), with the commit table it resolves tentative
     * writes in: the binding's own, so the region servers and the clients agree without an hbase-site.xml change.
     */
    private static CoprocessorDescriptor fastPathCoprocessor(TidemarkConfig config) {
        return CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.FAST_PATH_OBSERVER)
                .setPriority(TransactionalTableLayout.FAST_PATH_PRIORITY)
                .setProperty(TidemarkConfig.COMMIT_TABLE, config.getString(TidemarkConfig.COMMIT_TABLE,
                        TidemarkConfig.COMMIT_TABLE_DEFAULT))
                .setProperty(TidemarkConfig.COMMIT_TABLE_REGIONS, String.valueOf(config.getInt(
                        TidemarkConfig.COMMIT_TABLE_REGIONS, TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1,
                        CommitTableSchema.MAX_BUCKETS)))
                .build();
    }

    /** The hbase shell's coprocessor attribute: jar path (none: on the classpath)|class|priority|properties. */
    private static String shellSpec(CoprocessorDescriptor coprocessor) {
        StringBuilder properties = new StringBuilder();
        coprocessor.getProperties().forEach((key, value) ->
                properties.append(properties.length() == 0 ? "" : ",").append(key).append('=').append(value));
        return "|" + coprocessor.getClassName() + "|" + coprocessor.getPriority() + "|" + properties;
    }
}
