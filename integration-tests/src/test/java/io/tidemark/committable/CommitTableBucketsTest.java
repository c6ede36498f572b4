package io.tidemark.committable;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit table records the salt buckets it was created with, and a process configured with another number (whose
 * row keys the table's other users would never look at) writes no decision through any path: a lone record, a batch
 * of the blocking client, a batch of the asynchronous one, an invalidation; and a TSO so configured is not built.
 */
class CommitTableBucketsTest {

    private static final long START = 7L << Timestamps.LOW_BITS;
    private static final CommitRecord RECORD = new CommitRecord(START, START + (1L << Timestamps.LOW_BITS));

    private final List<TestCommitTable> created = new ArrayList<>();

    @AfterEach
    void dropTables() throws IOException {
        for (TestCommitTable table : created) {
            table.drop();
        }
    }

    @Test
    void aProcessConfiguredWithOtherBucketsThanTheTableWritesNoDecision() throws Exception {
        TestCommitTable table = create("buckets:guarded", true);
        HBaseCommitTable misconfigured = new HBaseCommitTable(SharedMiniCluster.connection(), table.name(),
                new CommitTableSchema(8));

        assertRefusedNaming("tidemark.commit-table.regions=4",
                () -> misconfigured.tryCommitAll(List.of(RECORD, new CommitRecord(START + 4096, START + 8192)),
                        CommitRecordDeadline.NONE));
        assertRefusedNaming("tidemark.commit-table.regions=4", () -> misconfigured.tryCommit(RECORD,
                CommitRecordDeadline.NONE));
        assertRefusedNaming("tidemark.commit-table.regions=4", () -> misconfigured.invalidate(START));
        try (HBaseAsyncCommitBatches batches = new HBaseAsyncCommitBatches(misconfigured,
                SharedMiniCluster.connection())) {
            ExecutionException refused = assertThrows(ExecutionException.class, () -> batches.send(List.of(RECORD),
                    CommitRecordDeadline.NONE).get(30, TimeUnit.SECONDS));
            assertInstanceOf(CommitTableMismatchException.class, refused.getCause());
        }

        assertEquals(0, decisionsIn(table), "nothing may be written under the misconfigured row keys");
        assertArrayEquals(new boolean[] {true}, table.commitTable().tryCommitAll(List.of(RECORD),
                CommitRecordDeadline.NONE), "a process configured as the table was created still commits");
    }

    @Test
    void anUnguardedTableIsCheckedToo() throws Exception {
        TestCommitTable table = create("buckets:unguarded", false);
        HBaseCommitTable misconfigured = new HBaseCommitTable(SharedMiniCluster.connection(), table.name(),
                new CommitTableSchema(16));

        assertRefusedNaming("tidemark.commit-table.regions=4", () -> misconfigured.tryCommit(RECORD,
                CommitRecordDeadline.NONE));
        assertEquals(0, decisionsIn(table));
    }

    @Test
    void aTableThatRecordsNoBucketsIsRefusedUntilTheyAreRecorded() throws Exception {
        TestCommitTable table = create("buckets:unrecorded", true);
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            TableDescriptor recorded = admin.getDescriptor(table.name());
            admin.modifyTable(TableDescriptorBuilder.newBuilder(recorded)
                    .removeValue(CommitTableSchema.BUCKETS_ATTRIBUTE).build());
            HBaseCommitTable before = new HBaseCommitTable(SharedMiniCluster.connection(), table.name(),
                    new CommitTableSchema(4));
            assertRefusedNaming("METADATA => {'tidemark.commit-table.buckets' => '<buckets>'}",
                    () -> before.tryCommitAll(List.of(RECORD), CommitRecordDeadline.NONE));
            assertEquals(0, decisionsIn(table));

            admin.modifyTable(recorded);
        }
        HBaseCommitTable after = new HBaseCommitTable(SharedMiniCluster.connection(), table.name(),
                new CommitTableSchema(4));
        assertArrayEquals(new boolean[] {true}, after.tryCommitAll(List.of(RECORD), CommitRecordDeadline.NONE));
    }

    @Test
    void aTsoConfiguredWithOtherBucketsThanTheTableRefusesToBeBuilt() throws Exception {
        TestCommitTable table = create("buckets:tso", true);
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.COMMIT_TABLE, table.name().getNameAsString());
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "8");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "buckets:tso_timestamps");
        try {
            CommitTableMismatchException refused = assertThrows(CommitTableMismatchException.class,
                    () -> TsoServer.builder().config(config).hbaseConnection(SharedMiniCluster.connection()).build());
            assertTrue(refused.getMessage().contains("tidemark.commit-table.regions=4"), refused.getMessage());
        } finally {
            TestCluster.drop(TableName.valueOf("buckets:tso_timestamps"));
        }
    }

    private TestCommitTable create(String name, boolean guard) throws IOException {
        TestCommitTable table = TestCommitTable.create(name, 4, guard);
        created.add(table);
        return table;
    }

    private static void assertRefusedNaming(String expected, Attempt attempt) {
        CommitTableMismatchException refused = assertThrows(CommitTableMismatchException.class, attempt::run);
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    /** Commit records and invalidation markers in {@code table} (the low-watermark row aside). */
    private static int decisionsIn(TestCommitTable table) throws IOException {
        int decisions = 0;
        try (Table handle = SharedMiniCluster.connection().getTable(table.name());
             ResultScanner rows = handle.getScanner(new Scan().addColumn(CommitTableSchema.FAMILY,
                     CommitTableSchema.COMMIT_QUALIFIER))) {
            for (Result ignored : rows) {
                decisions++;
            }
        }
        return decisions;
    }

    @FunctionalInterface
    private interface Attempt {
        void run() throws Exception;
    }
}
