package io.tidemark.coprocessor;

import io.tidemark.client.TransactionManager;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A real TSO (ephemeral port, its own timestamp and commit tables) on the shared mini-cluster, a TransactionManager
 * talking to it over a real socket, and helpers to create transactional and plain tables.
 */
public final class TransactionalCluster implements AutoCloseable {

    public static final String NAMESPACE = "tmcop";
    public static final byte[] F = Bytes.toBytes("f");
    public static final byte[] G = Bytes.toBytes("g");

    private static final AtomicInteger TABLES = new AtomicInteger();

    public final String name;
    public final TidemarkConfig config;
    public final TsoServer tso;
    public final TransactionManager tm;
    public final CommitTable commitTable;
    public final TidemarkAdmin admin;

    private TransactionalCluster(String name, TidemarkConfig config, TsoServer tso) {
        this.name = name;
        this.config = config;
        this.tso = tso;
        this.tm = managerBuilder().build();
        this.commitTable = new CommitTable(connection(), config);
        this.admin = new TidemarkAdmin(connection(), config);
    }

    public static TransactionalCluster start(String name, CommitMode mode) throws IOException {
        return start(name, mode, config -> { });
    }

    /** @param settings adjusts the configuration (TSO and client) before the TSO starts */
    public static TransactionalCluster start(String name, CommitMode mode, Consumer<TidemarkConfig> settings)
            throws IOException {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "1000");
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "2");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + name + "_timestamps");
        config.set(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, "50");
        settings.accept(config);
        try (Admin admin = connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection()).build();
        tso.start();
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        return new TransactionalCluster(name, config, tso);
    }

    public static Connection connection() {
        return SharedMiniCluster.connection();
    }

    public TransactionManager.Builder managerBuilder() {
        return TransactionManager.builder(connection()).config(config);
    }

    /** A table created by TidemarkAdmin: both coprocessors, families marked transactional. */
    public TableName createTransactionalTable(String prefix) throws IOException {
        TableName table = newName(prefix);
        admin.create(table, Bytes.toString(F), Bytes.toString(G));
        return table;
    }

    /** A transactional table (as {@link #createTransactionalTable(String)}) pre-split at {@code splitKeys}. */
    public TableName createTransactionalTable(String prefix, byte[]... splitKeys) throws IOException {
        TableName table = createPlainTable(prefix, 1, splitKeys);
        admin.enable(table);
        return table;
    }

    /** A table that keeps every version but has no coprocessor: snapshots are resolved by the client. */
    public TableName createPlainTable(String prefix, int versions, byte[]... splitKeys) throws IOException {
        TableName table = newName(prefix);
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table);
        for (byte[] family : new byte[][] {F, G}) {
            descriptor.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(versions)
                    .build());
        }
        try (Admin admin = connection().getAdmin()) {
            if (splitKeys.length == 0) {
                admin.createTable(descriptor.build());
            } else {
                admin.createTable(descriptor.build(), splitKeys);
            }
        }
        return table;
    }

    public TableName newName(String prefix) {
        return TableName.valueOf(NAMESPACE, name + "_" + prefix + "_" + TABLES.incrementAndGet());
    }

    public static void drop(TableName table) throws IOException {
        try (Admin admin = connection().getAdmin()) {
            if (admin.tableExists(table)) {
                admin.disableTable(table);
                admin.deleteTable(table);
            }
        }
    }

    @Override
    public void close() {
        tm.close();
        tso.close();
    }
}
