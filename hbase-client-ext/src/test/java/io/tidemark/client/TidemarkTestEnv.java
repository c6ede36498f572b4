package io.tidemark.client;

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

/**
 * A real TSO (on an ephemeral port, with its own timestamp and commit tables) on the shared mini-cluster, plus a
 * TransactionManager talking to it over a real socket.
 */
final class TidemarkTestEnv implements AutoCloseable {

    static final String NAMESPACE = "tmclient";
    static final byte[] F = Bytes.toBytes("f");
    static final byte[] G = Bytes.toBytes("g");

    private static final AtomicInteger TABLES = new AtomicInteger();

    final String name;
    final CommitMode mode;
    final TidemarkConfig config;
    final TsoServer tso;
    final TransactionManager tm;
    final CommitTable commitTable;

    private TidemarkTestEnv(String name, CommitMode mode, TidemarkConfig config, TsoServer tso) {
        this.name = name;
        this.mode = mode;
        this.config = config;
        this.tso = tso;
        this.tm = managerBuilder().build();
        this.commitTable = new CommitTable(connection(), config);
    }

    /** A TSO (and manager) of its own; {@code settings} are further key/value pairs of the configuration. */
    static TidemarkTestEnv start(String name, CommitMode mode, String... settings) throws IOException {
        TidemarkConfig config = config(name, mode);
        for (int i = 0; i + 1 < settings.length; i += 2) {
            config.set(settings[i], settings[i + 1]);
        }
        try (Admin admin = connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        TsoServer tso = startTso(config);
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        return new TidemarkTestEnv(name, mode, config, tso);
    }

    static TsoServer startTso(TidemarkConfig config) throws IOException {
        TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection()).build();
        tso.start();
        return tso;
    }

    static TidemarkConfig config(String name, CommitMode mode) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "1000");
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + name + "_timestamps");
        config.set(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, "50");
        return config;
    }

    static Connection connection() {
        return SharedMiniCluster.connection();
    }

    TransactionManager.Builder managerBuilder() {
        return TransactionManager.builder(connection()).config(config);
    }

    /** A new table whose families keep every version, as transactional tables must. */
    TableName createTable(String prefix) throws IOException {
        return createTable(prefix, Integer.MAX_VALUE);
    }

    TableName createTable(String prefix, int versions) throws IOException {
        TableName table = TableName.valueOf(name + "_" + prefix + "_" + TABLES.incrementAndGet());
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table);
        for (byte[] family : new byte[][] {F, G}) {
            descriptor.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(versions)
                    .build());
        }
        try (Admin admin = connection().getAdmin()) {
            admin.createTable(descriptor.build());
        }
        return table;
    }

    @Override
    public void close() {
        tm.close();
        tso.close();
    }
}
