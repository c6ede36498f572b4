package io.tidemark.committable;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParallelCommitWriterTest {

    private static final String TABLE = "parallelwritertest:commits";

    private static CommitTable commitTable;

    @BeforeAll
    static void createTable() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(TidemarkConfig.COMMIT_TABLE, TABLE);
        conf.setInt(TidemarkConfig.COMMIT_TABLE_REGIONS, 4);
        TidemarkConfig config = new TidemarkConfig(conf);
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            CommitTableAdmin.createIfMissing(admin, config);
        }
        commitTable = new CommitTable(SharedMiniCluster.connection(), config);
    }

    @AfterAll
    static void dropTable() throws Exception {
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            admin.disableTable(TableName.valueOf(TABLE));
            admin.deleteTable(TableName.valueOf(TABLE));
        }
    }

    @Test
    void aSplitBatchKeepsEachRecordsOutcomeInPlace() throws Exception {
        List<CommitRecord> records = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            long start = i * Timestamps.TSO_STEP;
            records.add(new CommitRecord(start, start + 1));
            if (i % 7 == 0) {
                commitTable.invalidate(start);
            }
        }
        boolean[] won;
        try (ParallelCommitWriter writer = new ParallelCommitWriter(commitTable, 8)) {
            won = writer.tryCommitAll(records);
        }
        assertEquals(records.size(), won.length);
        for (int i = 0; i < records.size(); i++) {
            long start = records.get(i).startTimestamp();
            if ((i + 1) % 7 == 0) {
                assertFalse(won[i], "record " + i + " was invalidated first");
                assertTrue(commitTable.lookup(start).isInvalidated());
            } else {
                assertTrue(won[i], "record " + i + " should have committed");
                assertEquals(start + 1, commitTable.lookup(start).commitTimestamp());
            }
        }
    }
}
