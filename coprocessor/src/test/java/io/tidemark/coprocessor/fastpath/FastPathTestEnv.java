package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TransactionManager;
import io.tidemark.client.fastpath.FastPathTable;
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
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real TSO (ephemeral port, own timestamp and commit tables) on the shared mini-cluster, a TransactionManager
 * talking to it over a real socket, and tables with the fast-path coprocessor told where that commit table is.
 */
final class FastPathTestEnv implements AutoCloseable {

    static final String NAMESPACE = "tmfastpath";
    static final byte[] F = Bytes.toBytes("f");
    static final byte[] G = Bytes.toBytes("g");

    private static final AtomicInteger TABLES = new AtomicInteger();

    final String name;
    final TidemarkConfig config;
    final TsoServer tso;
    final TransactionManager tm;

    private FastPathTestEnv(String name, TidemarkConfig config, TsoServer tso) {
        this.name = name;
        this.config = config;
        this.tso = tso;
        this.tm = TransactionManager.builder(connection()).config(config).build();
    }

    static FastPathTestEnv start(String name) throws IOException {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, CommitMode.LOW_LATENCY.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "1000");
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + name + "_timestamps");
        config.set(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, "50");
        try (Admin admin = connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection()).build();
        tso.start();
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        return new FastPathTestEnv(name, config, tso);
    }

    static Connection connection() {
        return SharedMiniCluster.connection();
    }

    /** A transactional table (every version kept) with the fast-path coprocessor and the per-row write check. */
    TableName createTable(String prefix) throws IOException {
        return createTable(prefix, "row");
    }

    /** Same, with the given {@link TidemarkConfig#FASTPATH_WRITE_CHECK} rule ("row" or "region"). */
    TableName createTable(String prefix, String writeCheck) throws IOException {
        TableName table = TableName.valueOf(name + "_" + prefix + "_" + TABLES.incrementAndGet());
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table);
        for (byte[] family : new byte[][] {F, G}) {
            descriptor.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
                    .setMaxVersions(Integer.MAX_VALUE).build());
        }
        descriptor.setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(FastPathObserver.class.getName())
                .setProperty(TidemarkConfig.COMMIT_TABLE, config.getString(TidemarkConfig.COMMIT_TABLE, null))
                .setProperty(TidemarkConfig.COMMIT_TABLE_REGIONS, "1")
                .setProperty(TidemarkConfig.FASTPATH_WRITE_CHECK, writeCheck)
                .build());
        try (Admin admin = connection().getAdmin()) {
            admin.createTable(descriptor.build());
        }
        return table;
    }

    FastPathTable fastPath(TableName table) throws IOException {
        return FastPathTable.builder(connection(), table).transactionManager(tm).build();
    }

    @Override
    public void close() {
        tm.close();
        tso.close();
    }
}
