package io.tidemark.committable;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
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
 * A client so configured learns it clearly: its commit aborts naming the setting, and a region server's refusal of
 * its reads reaches it at once.
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
    void aTableCreatedBeforeBucketsWereRecordedIsRefusedUntilTheyAre() throws Exception {
        TestCommitTable table = create("buckets:unrecorded", true);
        try (Admin admin = SharedMiniCluster.connection().getAdmin();
             Table handle = SharedMiniCluster.connection().getTable(table.name())) {
            TableDescriptor recorded = admin.getDescriptor(table.name());
            // As a table created before: neither the attribute nor the layout row.
            admin.modifyTable(TableDescriptorBuilder.newBuilder(recorded)
                    .removeValue(CommitTableSchema.BUCKETS_ATTRIBUTE).build());
            handle.delete(new Delete(CommitTableSchema.LAYOUT_ROW));
            HBaseCommitTable before = new HBaseCommitTable(SharedMiniCluster.connection(), table.name(),
                    new CommitTableSchema(4));
            assertRefusedNaming("a TSO of this version records them",
                    () -> before.tryCommitAll(List.of(RECORD), CommitRecordDeadline.NONE));
            assertRefusedNaming("METADATA => {'tidemark.commit-table.buckets' => '<buckets>'}",
                    () -> TestCommitTable.create(table.name().getNameAsString(), 4, true));
            assertEquals(0, decisionsIn(table));

            admin.modifyTable(recorded);
        }
        // As a TSO's build does: the attribute is copied into the layout row.
        TestCommitTable.create(table.name().getNameAsString(), 4, true);
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

    /**
     * A client configured with other buckets than the table records cannot write its commit record, and nobody else
     * writes one for it: its commit aborts, naming the setting, rather than leaving its outcome "unknown", and its
     * writes are gone.
     */
    @Test
    void aMisconfiguredClientsCommitAbortsNamingTheSetting() throws Exception {
        try (TestCluster cluster = TestCluster.start("buckets_commit", CommitMode.LOW_LATENCY)) {
            TableName name = cluster.createTransactionalTable("commit");
            byte[] row = Bytes.toBytes("r");
            TidemarkConfig misconfigured = new TidemarkConfig(new Configuration(cluster.config.hadoopConfiguration()));
            misconfigured.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "4");
            try (TransactionManager manager = TransactionManager.builder(TestCluster.connection()).config(misconfigured)
                    .build();
                 TTable table = new TTable(TestCluster.connection(), name)) {
                Transaction writer = manager.begin();
                table.put(writer, new Put(row).addColumn(TestCluster.F, row, row));
                TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                        () -> manager.commit(writer));
                assertEquals(TransactionAbortedException.Reason.COMMIT_TABLE_MISMATCH, aborted.reason());
                assertInstanceOf(CommitTableMismatchException.class, aborted.getCause());
                assertTrue(aborted.getCause().getMessage().contains("tidemark.commit-table.regions=2"),
                        aborted.getCause().getMessage());

                Transaction reader = cluster.tm.begin();
                assertTrue(table.get(reader, new Get(row)).isEmpty(), "nothing of the aborted transaction is visible");
                cluster.tm.rollback(reader);
            }
            try (Table plain = TestCluster.connection().getTable(name)) {
                assertTrue(plain.get(new Get(row).addColumn(TestCluster.F, row)).isEmpty(),
                        "the aborted transaction's tentative cell is removed");
            } finally {
                TestCluster.drop(name);
            }
            assertEquals(0, decisionsIn(cluster.commitTable.tableName()));
        }
    }

    /**
     * A reader configured with other buckets than the table records finds no record of a pending writer and tries to
     * invalidate it on the region server. The refusal must reach it as it is, at once: a retriable exception would
     * have HBase's client repeat the read for as long as its retries last, to the same refusal. A rightly configured
     * reader of the same region, just before, changes nothing.
     */
    @Test
    void aServerSideReadOfAMisconfiguredReaderIsRefusedWithoutRetries() throws Exception {
        try (TestCluster cluster = TestCluster.start("buckets_read", CommitMode.LOW_LATENCY)) {
            TableName name = cluster.createTransactionalTable("read");
            byte[] row = Bytes.toBytes("r");
            Transaction writer = cluster.tm.begin();
            try (TTable table = new TTable(TestCluster.connection(), name)) {
                table.put(writer, new Put(row).addColumn(TestCluster.F, row, row));
                // A rightly configured reader of the same region first: its commit table must not serve the other.
                Transaction rightly = cluster.tm.begin();
                assertTrue(table.get(rightly, new Get(Bytes.toBytes("a"))).isEmpty());
                cluster.tm.rollback(rightly);
            }
            TidemarkConfig misconfigured = new TidemarkConfig(new Configuration(cluster.config.hadoopConfiguration()));
            misconfigured.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "4");
            Configuration oneRetry = new Configuration(SharedMiniCluster.conf());
            oneRetry.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 1);
            try (Connection connection = ConnectionFactory.createConnection(oneRetry);
                 TransactionManager manager = TransactionManager.builder(connection).config(misconfigured).build();
                 TTable table = new TTable(connection, name)) {
                Transaction reader = manager.begin();
                IOException refused = assertThrows(IOException.class, () -> table.get(reader, new Get(row)));
                assertInstanceOf(CommitTableMismatchException.class, refused, "the region server's refusal as it is");
                assertTrue(refused.getMessage().contains("tidemark.commit-table.regions=2"), refused.getMessage());
            } finally {
                TestCluster.drop(name);
            }
            assertEquals(0, decisionsIn(cluster.commitTable.tableName()), "the pending writer was not invalidated");
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
        return decisionsIn(table.name());
    }

    private static int decisionsIn(TableName table) throws IOException {
        int decisions = 0;
        try (Table handle = SharedMiniCluster.connection().getTable(table);
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
