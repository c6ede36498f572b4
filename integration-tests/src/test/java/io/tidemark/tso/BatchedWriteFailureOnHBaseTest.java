package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;

/**
 * {@link BatchedWriteFailureContract} on a real commit table, disabled while the batch must wait. The TSO talks to
 * HBase over an impatient connection, so that each attempt fails fast rather than retrying inside the HBase client.
 */
class BatchedWriteFailureOnHBaseTest extends BatchedWriteFailureContract {

    private static Connection impatient;

    @BeforeAll
    static void connect() throws IOException {
        Configuration conf = new Configuration(SharedMiniCluster.conf());
        conf.setInt("hbase.client.retries.number", 1);
        conf.setInt("hbase.client.pause", 20);
        conf.setInt("hbase.client.operation.timeout", 5000);
        impatient = ConnectionFactory.createConnection(conf);
    }

    @AfterAll
    static void disconnect() throws IOException {
        impatient.close();
    }

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new HBaseTsoCluster(config, impatient);
    }

    @Override
    protected void commitTableUnavailable(TsoCluster cluster) throws IOException {
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            admin.disableTable(((HBaseTsoCluster) cluster).commitTable().tableName());
        }
    }

    @Override
    protected void commitTableBack(TsoCluster cluster) throws IOException {
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            admin.enableTable(((HBaseTsoCluster) cluster).commitTable().tableName());
        }
    }
}
