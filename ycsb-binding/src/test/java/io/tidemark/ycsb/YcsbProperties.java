package io.tidemark.ycsb;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.conf.Configuration;

import java.util.Properties;

/** The YCSB properties that point the binding at a {@link TestCluster}: what a YCSB user passes with -p. */
final class YcsbProperties {

    private YcsbProperties() {
    }

    /** The binding in {@code mode} on {@code table}, created by the binding if missing. */
    static Properties of(TestCluster cluster, BindingMode mode, String table) {
        Configuration conf = SharedMiniCluster.conf();
        Properties p = new Properties();
        p.setProperty("hbase.zookeeper.quorum", conf.get("hbase.zookeeper.quorum"));
        p.setProperty("hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
        p.setProperty(BindingMode.PROPERTY, mode.propertyValue());
        p.setProperty(BindingSettings.TSO_ADDRESS, "127.0.0.1:" + cluster.tso.port());
        for (Setting<?> setting : new Setting<?>[] {TidemarkConfig.COMMIT_TABLE, TidemarkConfig.COMMIT_TABLE_REGIONS,
                TidemarkConfig.TIMESTAMP_TABLE}) {
            p.setProperty(setting.key(), cluster.config.hadoopConfiguration().get(setting.key()));
        }
        p.setProperty(BindingSettings.TABLE, table);
        p.setProperty(BindingSettings.CREATE_TABLE, "true");
        return p;
    }
}
