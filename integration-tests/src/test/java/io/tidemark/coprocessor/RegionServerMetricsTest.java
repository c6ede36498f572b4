package io.tidemark.coprocessor;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.admin.BulkLoad;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitTableMismatchException;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TableLoadingException;
import io.tidemark.testing.LowWatermarks;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.metrics.Counter;
import org.apache.hadoop.hbase.metrics.Metric;
import org.apache.hadoop.hbase.metrics.MetricRegistries;
import org.apache.hadoop.hbase.metrics.MetricRegistry;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 36: what the region servers do for Tidemark shows in their JMX, where HBase operators look. Each test makes a
 * real region server of the mini-cluster (in this JVM) do one kind of work, then reads the observer's coprocessor
 * bean through the platform MBean server, as a JMX client would, until the counter shows it. HBase publishes a
 * coprocessor's registry to JMX from a background task (every 10 s) and refreshes a bean's values when its cache
 * expires (each second here: the module's {@code hadoop-metrics2-hbase.properties}, instead of HBase's 10 s), so the
 * test waits for the value instead of reading it once; the counters themselves count at once.
 *
 * <p>HBase drops an observer's registry when the last region of the observer on the region server closes, and
 * publishes a registry created again under the same name only once its background task has seen the old one gone:
 * so the test's tables stay open from the first test to the last, and the class starts only after a bean left behind
 * by earlier tests' tables is gone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RegionServerMetricsTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final String REGISTRY = "Coprocessor.Region.CP_" + TransactionalRegionObserver.class.getName();
    private static final String BEAN = "Hadoop:service=HBase,name=RegionServer,sub=" + REGISTRY;
    private static final long PUBLISH_WAIT_SECONDS = 90;

    private static TestCluster cluster;
    private static TableName reads;
    private static TableName gc;
    private static TableName fast;
    private static TableName refusals;

    @BeforeAll
    static void start() throws Exception {
        awaitNoBeanOfAClosedRegistry();
        // A small conflict map and a quick persist interval let the low watermark rise within the test, as in
        // SnapshotTooOldTest.
        cluster = TestCluster.start("metrics", CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
            config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
        });
        reads = cluster.createTransactionalTable("reads");
        gc = cluster.createTransactionalTable("gc");
        fast = cluster.createTable("fast", EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.COMPACTION_GC,
                TableFeature.FAST_PATH));
        refusals = cluster.createTransactionalTable("refusals");
    }

    @AfterAll
    static void stop() throws IOException {
        for (TableName table : new TableName[] {reads, gc, fast, refusals}) {
            if (table != null) {
                TestCluster.drop(table);
            }
        }
        cluster.close();
    }

    @Test
    void serverSideReadsCountTheWritersTheyInvalidateAndTheShadowCellsTheyHeal() throws Exception {
        long invalidated = registered(RegionMetrics.READ_INVALIDATED_WRITERS);
        long healed = registered(RegionMetrics.READ_HEALED_SHADOW_CELLS);
        try (TTable table = new TTable(TestCluster.connection(), reads)) {
            Transaction pending = cluster.tm.begin();
            table.put(pending, new Put(Bytes.toBytes("pending")).addColumn(F, Q, Bytes.toBytes("tentative")));
            // Committed with a record but without shadow cells, as a client that died in its post-commit leaves it.
            Transaction recorded = cluster.tm.begin();
            table.put(recorded, new Put(Bytes.toBytes("recorded")).addColumn(F, Q, Bytes.toBytes("committed")));
            long commitTimestamp = cluster.tm.begin().startTimestamp();
            assertTrue(cluster.commitTable.tryCommit(new CommitRecord(recorded.startTimestamp(), commitTimestamp)));

            Transaction reader = cluster.tm.begin();
            assertTrue(table.get(reader, new Get(Bytes.toBytes("pending"))).isEmpty());
            assertEquals("committed", Bytes.toString(table.get(reader, new Get(Bytes.toBytes("recorded")))
                    .getValue(F, Q)));
            cluster.tm.commit(reader);
            TransactionAbortedException lost = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(pending));
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, lost.reason());
        }
        awaitOnJmx(RegionMetrics.READ_INVALIDATED_WRITERS, invalidated + 1);
        awaitOnJmx(RegionMetrics.READ_HEALED_SHADOW_CELLS, healed + 1);
    }

    @Test
    void compactionCountsTheVersionsItCollectsAndTheSnapshotsTooOldItRefuses() throws Exception {
        long collected = registered(RegionMetrics.COMPACTION_COLLECTED_VERSIONS);
        long tooOld = registered(RegionMetrics.SNAPSHOT_TOO_OLD_REFUSALS);
        byte[] row = Bytes.toBytes("row");
        try (TTable table = new TTable(TestCluster.connection(), gc)) {
            commit(table, row, "v1");
            Transaction audit = cluster.tm.begin();
            commit(table, row, "v2");
            long last = commit(table, row, "v3");
            LowWatermarks.raiseTo(cluster, last);
            for (HRegion region : SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(gc)) {
                region.flush(true);
                region.compact(true);
            }
            TransactionAbortedException refused = assertThrows(TransactionAbortedException.class,
                    () -> table.get(audit, new Get(row)));
            assertEquals(TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, refused.reason());
        }
        // v1 and v2 lie below v3, the newest committed version at or below the low watermark.
        awaitOnJmx(RegionMetrics.COMPACTION_COLLECTED_VERSIONS, collected + 2);
        awaitOnJmx(RegionMetrics.SNAPSHOT_TOO_OLD_REFUSALS, tooOld + 1);
    }

    @Test
    void theFastPathCountsItsOperationsAndItsRefusals() throws Exception {
        long operations = registered(RegionMetrics.FAST_PATH_OPERATIONS);
        long refused = registered(RegionMetrics.FAST_PATH_REFUSALS);
        byte[] row = Bytes.toBytes("counter");
        try (TTable table = new TTable(TestCluster.connection(), fast);
             FastPathTable fastPath = cluster.fastPath(fast)) {
            assertEquals(1, fastPath.increment(row, F, Q, 1));
            Transaction pending = cluster.tm.begin();
            table.put(pending, new Put(row).addColumn(F, Q, Bytes.toBytes(7L)));
            assertThrows(FastPathConflictException.class, () -> fastPath.increment(row, F, Q, 1));
            cluster.tm.rollback(pending);
        }
        awaitOnJmx(RegionMetrics.FAST_PATH_OPERATIONS, operations + 2);
        awaitOnJmx(RegionMetrics.FAST_PATH_REFUSALS, refused + 1);
    }

    @Test
    void theLoadGuardsAndTheBindingsRefusalsAreCounted() throws Exception {
        long loadGuard = registered(RegionMetrics.LOAD_GUARD_REFUSALS);
        long binding = registered(RegionMetrics.BINDING_REFUSALS);
        byte[] row = Bytes.toBytes("row");
        try (Table raw = TestCluster.connection().getTable(refusals)) {
            // A transactional read of a client that checked the table before the load began: the region refuses it.
            Get read = new Get(row);
            FastPathProtocol.markTransaction(read, cluster.tm.begin().startTimestamp());
            try (BulkLoad load = cluster.admin.beginLoad(refusals, cluster.tm)) {
                assertThrows(TableLoadingException.class, () -> raw.get(read));
                load.finish();
            }
            // A read naming a commit table other than the table's binding.
            long start = cluster.tm.begin().startTimestamp();
            Get forged = new Get(row).setAttribute(SnapshotAttribute.NAME, new SnapshotAttribute(start, 0, start - 1,
                    false, CommitMode.LOW_LATENCY, TestCluster.NAMESPACE + ":not_the_bound_commit_table",
                    new CommitTableSettings(cluster.config).buckets()).encode());
            assertThrows(CommitTableMismatchException.class, () -> raw.get(forged));
        }
        awaitOnJmx(RegionMetrics.LOAD_GUARD_REFUSALS, loadGuard + 1);
        awaitOnJmx(RegionMetrics.BINDING_REFUSALS, binding + 1);
    }

    private static long commit(TTable table, byte[] row, String value) throws IOException {
        Transaction tx = cluster.tm.begin();
        table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
        cluster.tm.commit(tx);
        return tx.commitTimestamp();
    }

    /**
     * Waits until no bean is left of a registry HBase dropped (earlier tests closed the observer's last region): one
     * created again before HBase saw the old one gone would never be published.
     */
    private static void awaitNoBeanOfAClosedRegistry() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName bean = new ObjectName(BEAN);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(PUBLISH_WAIT_SECONDS);
        while (server.isRegistered(bean) && liveRegistry().isEmpty()) {
            if (System.nanoTime() - giveUp > 0) {
                throw new AssertionError(BEAN + " stayed registered without its registry for "
                        + PUBLISH_WAIT_SECONDS + " s");
            }
            Thread.sleep(500);
        }
    }

    /** The registry HBase keeps for the observer in this JVM, while a region of the observer is open. */
    private static Optional<MetricRegistry> liveRegistry() {
        return MetricRegistries.global().getMetricRegistries().stream()
                .filter(r -> r.getMetricRegistryInfo().getMetricsName().equals(REGISTRY)).findFirst();
    }

    /** The counter's value in the observer's registry now: what the JMX bean shows once HBase publishes it. */
    private static long registered(String counter) {
        Optional<Metric> metric = liveRegistry().flatMap(r -> r.get(counter));
        return metric.map(m -> ((Counter) m).getCount()).orElse(0L);
    }

    /**
     * Reads {@code counter} on the observer's bean over JMX until it is at least {@code atLeast}. Hadoop's metrics
     * system publishes a metric with its first letter in upper case: counter {@code fastPathOperations} is the
     * attribute {@code FastPathOperations}.
     */
    private static void awaitOnJmx(String counter, long atLeast) throws Exception {
        String attribute = Character.toUpperCase(counter.charAt(0)) + counter.substring(1);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName bean = new ObjectName(BEAN);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(PUBLISH_WAIT_SECONDS);
        long seen = -1;
        while (System.nanoTime() - giveUp < 0) {
            if (server.isRegistered(bean)) {
                try {
                    seen = ((Number) server.getAttribute(bean, attribute)).longValue();
                } catch (AttributeNotFoundException notYetPublished) {
                    seen = -1;
                }
                if (seen >= atLeast) {
                    System.out.println("JMX " + BEAN + ": " + attributes(server, bean));
                    return;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError(BEAN + " " + attribute + " is " + (seen < 0 ? "not published" : seen)
                + " after " + PUBLISH_WAIT_SECONDS + " s, expected at least " + atLeast + "; registered: "
                + registered(counter));
    }

    /** Every attribute of the bean, for the test's output (docs/monitoring.md shows such a read). */
    private static Map<String, Object> attributes(MBeanServer server, ObjectName bean) throws Exception {
        Map<String, Object> values = new TreeMap<>();
        for (MBeanAttributeInfo info : server.getMBeanInfo(bean).getAttributes()) {
            values.put(info.getName(), server.getAttribute(bean, info.getName()));
        }
        return values;
    }
}
