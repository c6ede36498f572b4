package io.tidemark.testing;

import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

import java.io.IOException;

/** A commit table of a test's own on the shared mini-cluster, dropped by {@link #drop()}. */
public final class TestCommitTable {

    private final TableName name;
    private final HBaseCommitTable commitTable;

    private TestCommitTable(TableName name, HBaseCommitTable commitTable) {
        this.name = name;
        this.commitTable = commitTable;
    }

    /** Creates {@code name} with {@code regions} salt buckets, with or without the commit-record guard. */
    public static TestCommitTable create(String name, int regions, boolean guard) throws IOException {
        Configuration conf = new Configuration(false);
        conf.set(TidemarkConfig.COMMIT_TABLE.key(), name);
        conf.setInt(TidemarkConfig.COMMIT_TABLE_REGIONS.key(), regions);
        conf.setBoolean(TidemarkConfig.COMMIT_TABLE_GUARD.key(), guard);
        CommitTableSettings settings = new CommitTableSettings(new TidemarkConfig(conf));
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            CommitTableAdmin.createIfMissing(admin, settings);
        }
        return new TestCommitTable(settings.tableName(), new HBaseCommitTable(SharedMiniCluster.connection(),
                settings));
    }

    public HBaseCommitTable commitTable() {
        return commitTable;
    }

    public TableName name() {
        return name;
    }

    public void drop() throws IOException {
        TestCluster.drop(name);
    }
}
