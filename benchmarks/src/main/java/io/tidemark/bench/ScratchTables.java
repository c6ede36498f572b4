package io.tidemark.bench;

import io.tidemark.table.TableFeature;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.concurrent.Futures;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * The tables benchmarks and workloads write: scratch data, dropped when an earlier run left them and created afresh
 * by {@link TidemarkAdmin#descriptorFor} (every version kept, families marked transactional, bound to the commit
 * table of the run's transactions). Raw-HBase runs get the same schema, for a fair comparison.
 */
public final class ScratchTables {

    private ScratchTables() {
    }

    /**
     * Recreates {@code name} with one family and no coprocessor (snapshots resolved by the client), for the
     * transactions of {@code clientConfig}'s commit table.
     */
    public static void recreate(Connection connection, TableName name, String family, TidemarkConfig clientConfig)
            throws IOException {
        recreate(connection, name, family, Set.of(), clientConfig);
    }

    /**
     * Recreates {@code name} as {@link #recreate(Connection, TableName, String, TidemarkConfig)} does, for raw HBase
     * operations (bound to the default commit table, which raw operations never consult).
     */
    public static void recreateForRawHBase(Connection connection, TableName name, String family) throws IOException {
        recreateForRawHBase(connection, name, family, new byte[0][]);
    }

    /**
     * Recreates {@code name} as {@link #recreateForRawHBase(Connection, TableName, String)} does, split into regions
     * at {@code splitKeys} (none: one region).
     */
    public static void recreateForRawHBase(Connection connection, TableName name, String family, byte[][] splitKeys)
            throws IOException {
        recreate(connection, name, family, Set.of(), new TidemarkConfig(new Configuration(false)), splitKeys);
    }

    /**
     * Recreates {@code name} with one family and the coprocessors of {@code features}, told which commit table
     * {@code clientConfig}'s transactions use.
     */
    public static void recreate(Connection connection, TableName name, String family, Set<TableFeature> features,
                                TidemarkConfig clientConfig) throws IOException {
        recreate(connection, name, family, features, clientConfig, new byte[0][]);
    }

    /**
     * Recreates {@code name} as {@link #recreate(Connection, TableName, String, Set, TidemarkConfig)} does, split into
     * regions at {@code splitKeys} (none: one region).
     */
    public static void recreate(Connection connection, TableName name, String family, Set<TableFeature> features,
                                TidemarkConfig clientConfig, byte[][] splitKeys) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            dropAll(admin, List.of(name));
            TableDescriptor descriptor = new TidemarkAdmin(connection, clientConfig).descriptorFor(name,
                    List.of(family), features);
            if (splitKeys.length == 0) {
                admin.createTable(descriptor);
            } else {
                admin.createTable(descriptor, splitKeys);
            }
        }
    }

    /**
     * Recreates each of {@code names} as {@link #recreate(Connection, TableName, String, TidemarkConfig)} does, the
     * master dropping and creating them side by side: one table after the other, a set such as TPC-C's nine spends
     * most of its time waiting for each procedure's end.
     */
    public static void recreateAll(Connection connection, List<TableName> names, String family,
                                   TidemarkConfig clientConfig) throws IOException {
        TidemarkAdmin tidemark = new TidemarkAdmin(connection, clientConfig);
        try (Admin admin = connection.getAdmin()) {
            dropAll(admin, names);
            List<Future<Void>> created = new ArrayList<>();
            for (TableName name : names) {
                created.add(admin.createTableAsync(tidemark.descriptorFor(name, List.of(family), Set.of())));
            }
            awaitAll(created, "creating a table of " + names);
        }
    }

    /**
     * The split points of a table of keys 0 to {@code keys - 1} (rows {@code row(key)}, in key order) into
     * {@code regions} regions of equal key ranges.
     */
    public static byte[][] evenSplits(int keys, int regions, IntFunction<byte[]> row) {
        byte[][] splits = new byte[regions - 1][];
        for (int i = 1; i < regions; i++) {
            splits[i - 1] = row.apply((int) ((long) keys * i / regions));
        }
        return splits;
    }

    /** Drops the table if it exists. */
    public static void drop(Connection connection, TableName name) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            dropAll(admin, List.of(name));
        }
    }

    /** Drops those of {@code names} that exist, side by side as {@link #recreateAll} creates them. */
    public static void dropAll(Connection connection, List<TableName> names) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            dropAll(admin, names);
        }
    }

    private static void dropAll(Admin admin, List<TableName> names) throws IOException {
        List<TableName> existing = new ArrayList<>();
        List<Future<Void>> disabled = new ArrayList<>();
        for (TableName name : names) {
            if (admin.tableExists(name)) {
                existing.add(name);
                if (admin.isTableEnabled(name)) {
                    disabled.add(admin.disableTableAsync(name));
                }
            }
        }
        awaitAll(disabled, "disabling a table of " + existing);
        List<Future<Void>> deleted = new ArrayList<>();
        for (TableName name : existing) {
            deleted.add(admin.deleteTableAsync(name));
        }
        awaitAll(deleted, "dropping a table of " + existing);
    }

    private static void awaitAll(List<Future<Void>> procedures, String what) throws IOException {
        for (Future<Void> procedure : procedures) {
            Futures.await(procedure, what);
        }
    }
}
