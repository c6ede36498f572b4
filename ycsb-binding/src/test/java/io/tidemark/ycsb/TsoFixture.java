package io.tidemark.ycsb;

import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.Properties;

/**
 * A real TSO (ephemeral port, its own timestamp and commit tables) on the shared mini-cluster, and the YCSB
 * properties that point the binding at both.
 */
final class TsoFixture implements AutoCloseable {

    static final String NAMESPACE = "ycsbtest";

    final TidemarkConfig config;
    final TsoServer tso;

    private TsoFixture(TidemarkConfig config, TsoServer tso) {
        this.config = config;
        this.tso = tso;
    }

    static TsoFixture start(String name, CommitMode mode) throws IOException {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "1000");
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + name + "_timestamps");
        try (Admin admin = connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection()).build();
        tso.start();
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        return new TsoFixture(config, tso);
    }

    static Connection connection() {
        return SharedMiniCluster.connection();
    }

    /** Where HBase is: what a YCSB user passes with -p. */
    static Properties hbaseProperties() {
        Configuration conf = SharedMiniCluster.conf();
        Properties p = new Properties();
        p.setProperty("hbase.zookeeper.quorum", conf.get("hbase.zookeeper.quorum"));
        p.setProperty("hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
        return p;
    }

    /** The binding's properties for this TSO, in {@code mode}, on {@code table}. */
    Properties bindingProperties(BindingMode mode, String table) {
        Properties p = hbaseProperties();
        p.setProperty(BindingMode.PROPERTY, mode.propertyValue());
        p.setProperty(BindingSettings.TSO_ADDRESS, "127.0.0.1:" + tso.port());
        p.setProperty(TidemarkConfig.COMMIT_TABLE, config.getString(TidemarkConfig.COMMIT_TABLE, null));
        p.setProperty(TidemarkConfig.COMMIT_TABLE_REGIONS, config.getString(TidemarkConfig.COMMIT_TABLE_REGIONS, null));
        p.setProperty(BindingSettings.TABLE, table);
        p.setProperty(BindingSettings.CREATE_TABLE, "true");
        return p;
    }

    @Override
    public void close() {
        tso.close();
    }
}
