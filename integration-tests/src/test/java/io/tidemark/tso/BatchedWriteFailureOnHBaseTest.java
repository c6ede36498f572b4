package io.tidemark.tso;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BatchedWriteFailureContract} on a real commit table, disabled while the batch must wait. The TSO talks to
 * HBase over an impatient connection, so that each attempt fails fast rather than retrying inside the HBase client.
 */
// Alone: its commit table is away against deadlines of two seconds, which other classes' load would blur.
@Isolated
class BatchedWriteFailureOnHBaseTest extends BatchedWriteFailureContract {

    private static final long RECORD_TIMEOUT_MS = 2000;
    private static final long DEADLINE_MARGIN_MS = 500;

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

    /**
     * HBase's own client retries a write for up to {@code hbase.client.operation.timeout} (20 minutes by default), so
     * a record write sent before the commit-record deadline could land long after it. The deadline bounds the HBase
     * timeouts of every attempt: with the record's region offline, the write gives up at the deadline, and once the
     * region is back the batch is settled by invalidation, not by a late record. The read of the commit table's layout
     * row, which comes before the TSO's first write, is bounded alike: its region is offline too.
     */
    @Test
    void theDeadlineBoundsHBasesOwnRetriesOfARecordWrite() throws Exception {
        TidemarkConfig config = TestTso.config("batched_deadline_hbase", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        config.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, Long.toString(RECORD_TIMEOUT_MS));
        Configuration patientConf = new Configuration(SharedMiniCluster.conf());
        patientConf.setInt("hbase.client.retries.number", 100);
        patientConf.setInt("hbase.client.operation.timeout", 1_200_000);
        try (Connection patient = ConnectionFactory.createConnection(patientConf);
             Admin admin = SharedMiniCluster.connection().getAdmin()) {
            HBaseTsoCluster cluster = new HBaseTsoCluster(config, patient);
            HBaseCommitTable commitTable = cluster.commitTable();
            try (TsoServer server = cluster.start(config);
                 TsoTestClient client = TsoTestClient.connected(server.port())) {
                long start = client.begin();
                // The record's region, and the region of the layout row the TSO reads before its first write.
                Set<String> regions = new LinkedHashSet<>();
                try (RegionLocator locator = SharedMiniCluster.connection().getRegionLocator(
                        commitTable.tableName())) {
                    for (byte[] row : List.of(commitTable.schema().rowKey(start), CommitTableSchema.LAYOUT_ROW)) {
                        regions.add(locator.getRegionLocation(row).getRegion().getEncodedName());
                    }
                }
                for (String region : regions) {
                    admin.unassign(Bytes.toBytes(region));
                }
                try {
                    long sent = System.currentTimeMillis();
                    client.send(client.commitRequest(start, 1));
                    long giveUp = System.currentTimeMillis() + 60_000;
                    while (server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() == 0
                            && System.currentTimeMillis() < giveUp) {
                        Thread.sleep(20);
                    }
                    assertTrue(server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() > 0,
                            "the record write gave up at its deadline instead of retrying inside HBase's client");
                    // An attempt can fail before the deadline; the region comes back only once no record write may
                    // be sent any more, so the batch can only be settled by invalidation.
                    long pastDeadline = sent + RECORD_TIMEOUT_MS + DEADLINE_MARGIN_MS;
                    Thread.sleep(Math.max(0, pastDeadline - System.currentTimeMillis()));
                } finally {
                    for (String region : regions) {
                        admin.assign(Bytes.toBytes(region));
                    }
                }
                AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.receive());
                assertEquals(AbortReason.INVALIDATED, aborted.reason());
                assertTrue(commitTable.lookup(start).isInvalidated(), "no commit record was written late");
            }
        }
    }
}
