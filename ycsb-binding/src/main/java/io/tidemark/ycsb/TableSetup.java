package io.tidemark.ycsb;

import io.tidemark.table.TableFeature;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.client.admin.TransactionalTableInspector;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Makes sure the YCSB table is there and usable before any client thread starts: created on request (by
 * {@link TidemarkAdmin#descriptorFor}: the family keeps every version and is marked transactional), otherwise checked, so a missing table or a family that
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
                            + BindingSettings.CREATE_TABLE + "=true to create it, or run ./tidemark table create "
                            + table.getNameAsString() + " " + family);
                }
                create(connection, admin, table, settings);
            }
            check(admin.getDescriptor(table), descriptor(connection, table, settings), settings);
        }
    }

    private static void create(Connection connection, Admin admin, TableName table, BindingSettings settings)
            throws IOException {
        try {
            admin.createTable(descriptor(connection, table, settings));
        } catch (TableExistsException raced) {
            // Another YCSB process created it first: fine, it is checked next like any existing table.
        }
    }

    /**
     * The table as the binding creates it: a transactional family (every version kept, marked transactional) and, in
     * {@code fastpath} mode, the fast-path observer told which commit table the binding's transactions use, so the
     * region servers and the clients agree without an hbase-site.xml change.
     */
    private static TableDescriptor descriptor(Connection connection, TableName table, BindingSettings settings) {
        Set<TableFeature> features = settings.mode().usesFastPath() ? EnumSet.of(TableFeature.FAST_PATH)
                : EnumSet.noneOf(TableFeature.class);
        return new TidemarkAdmin(connection, settings.tidemarkConfig()).descriptorFor(table,
                List.of(Bytes.toString(settings.family())), features);
    }

    private static void check(TableDescriptor descriptor, TableDescriptor wanted, BindingSettings settings)
            throws IOException {
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
        int required = settings.tidemarkConfig().get(TidemarkConfig.CLIENT_MIN_VERSIONS);
        if (columnFamily.getMaxVersions() < required) {
            throw new IOException("table " + table + " cannot hold transactional data: column family '" + family
                    + "' keeps " + columnFamily.getMaxVersions() + " version(s), Tidemark needs " + required + ". Fix"
                    + " it in the hbase shell: alter '" + table + "', {NAME => '" + family + "', VERSIONS => "
                    + required + "} (or run with " + BindingMode.PROPERTY + "=raw)");
        }
        if (settings.mode().usesFastPath() && !TableFeature.of(descriptor).contains(TableFeature.FAST_PATH)) {
            throw new IOException("table " + table + " has no fast path, which " + BindingMode.PROPERTY
                    + "=fastpath needs. Attach it in the hbase shell: alter '" + table + "', METHOD => 'table_att',"
                    + " 'coprocessor' => '" + shellSpec(transactionalObserver(wanted)) + "' (or"
                    + " drop the table and run the load with " + BindingSettings.CREATE_TABLE + "=true, which"
                    + " creates it with the fast path; docs/fast-path.md)");
        }
        if (!TransactionalTableInspector.isTransactional(columnFamily)) {
            throw new IOException("table " + table + " cannot hold transactional data: column family '" + family
                    + "' is not marked " + TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY + ", so the commit-table"
                    + " sweeper would not find its cells. Fix: ./tidemark table enable " + table + " (or run with "
                    + BindingMode.PROPERTY + "=raw)");
        }
    }

    /** The transactional observer of {@code wanted}, which provides the fast path (docs/fast-path.md). */
    private static CoprocessorDescriptor transactionalObserver(TableDescriptor wanted) {
        return wanted.getCoprocessorDescriptors().stream()
                .filter(cp -> cp.getClassName().equals(TransactionalTableLayout.TRANSACTIONAL_OBSERVER))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the binding's descriptor has no transactional observer"));
    }

    /** The hbase shell's coprocessor attribute: jar path (none: on the classpath)|class|priority|properties. */
    private static String shellSpec(CoprocessorDescriptor coprocessor) {
        StringBuilder properties = new StringBuilder();
        coprocessor.getProperties().forEach((key, value) ->
                properties.append(properties.length() == 0 ? "" : ",").append(key).append('=').append(value));
        return "|" + coprocessor.getClassName() + "|" + coprocessor.getPriority() + "|" + properties;
    }
}
