package io.tidemark.ycsb;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/**
 * Makes sure the YCSB table is there and usable before any client thread starts: created on request (with the
 * family keeping every version, as transactions need), otherwise checked, so a missing table or a family that
 * keeps too few versions stops the run with one clear message instead of failing every operation.
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
                create(admin, table, settings.family());
            }
            check(admin.getDescriptor(table), settings);
        }
    }

    private static void create(Admin admin, TableName table, byte[] family) throws IOException {
        TableDescriptor descriptor = TableDescriptorBuilder.newBuilder(table)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
                        .setMaxVersions(Integer.MAX_VALUE)
                        .build())
                .build();
        try {
            admin.createTable(descriptor);
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
    }
}
