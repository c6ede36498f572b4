package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.MBeanServer;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11, observability: a {@link TransactionManager}'s metrics, read the way an operator's tool reads them, from the
 * platform MBean server, while the manager works against a real TSO and HBase.
 */
@ExtendWith(SharedTestClusters.class)
class ClientMetricsTest {

    private static final byte[] X = Bytes.toBytes("x");
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    private static final AtomicInteger MANAGERS = new AtomicInteger();

    private static TestCluster env;
    private static TableName tableName;

    @BeforeAll
    static void createTable(TestCluster shared) throws IOException {
        env = shared;
        tableName = env.createTable("data", Set.of());
    }

    @Test
    void commitsAbortsAndTsoRoundTripsAreMBeans() throws Exception {
        String name = "metrics-" + MANAGERS.incrementAndGet();
        try (TransactionManager tm = manager(name).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            assertEquals(name, tm.metricsName());
            Transaction first = tm.begin();
            table.put(first, new Put(Bytes.toBytes("a")).addColumn(F, X, Bytes.toBytes("1")));
            tm.commit(first);
            Transaction winner = tm.begin();
            Transaction loser = tm.begin();
            table.put(winner, new Put(Bytes.toBytes("b")).addColumn(F, X, Bytes.toBytes("w")));
            table.put(loser, new Put(Bytes.toBytes("b")).addColumn(F, X, Bytes.toBytes("l")));
            tm.commit(winner);
            TransactionAbortedException conflict = assertThrows(TransactionAbortedException.class,
                    () -> tm.commit(loser));
            assertEquals(TransactionAbortedException.Reason.CONFLICT, conflict.reason());
            tm.commit(tm.begin());

            assertEquals(4L, count(name, ClientMetrics.BEGINS));
            assertEquals(4L, count(name, ClientMetrics.TSO_BEGIN_ROUND_TRIP));
            assertEquals(2L, count(name, ClientMetrics.COMMITS));
            assertEquals(3L, count(name, ClientMetrics.COMMIT_LATENCY), "read-only commits are not timed");
            assertEquals(3L, count(name, ClientMetrics.TSO_COMMIT_ROUND_TRIP));
            assertTrue((Double) JMX.getAttribute(ClientMetrics.objectName(name, ClientMetrics.COMMIT_LATENCY),
                    "99thPercentile") > 0);
            assertEquals(1L, count(name, ClientMetrics.abortName(TransactionAbortedException.Reason.CONFLICT)));
            assertEquals(0L, count(name, ClientMetrics.abortName(TransactionAbortedException.Reason.INVALIDATED)));
            assertEquals(2L, count(name, ClientMetrics.COMMIT_RECORD_BATCH_SIZE),
                    "one commit-table round trip per commit, one after the other");
            assertEquals(1L, JMX.getAttribute(ClientMetrics.objectName(name, ClientMetrics.COMMIT_RECORD_BATCH_SIZE),
                    "Max"));
        }
        assertFalse(JMX.isRegistered(ClientMetrics.objectName(name, ClientMetrics.BEGINS)),
                "closing the manager unregisters its MBeans");
    }

    @Test
    void readersCountTheWritersTheyInvalidateAndTheShadowCellsTheyHeal() throws Exception {
        String name = "metrics-" + MANAGERS.incrementAndGet();
        ShadowCellWriter dies = (table, shadowCells) -> {
            throw new IOException("staged: the client dies before its shadow cells");
        };
        try (TransactionManager tm = manager(name).build();
             TransactionManager diesAfterCommitPoint = manager("dying-" + name).shadowCellWriter(dies).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            byte[] pendingRow = Bytes.toBytes("pending");
            Transaction pending = tm.begin();
            table.put(pending, new Put(pendingRow).addColumn(F, X, Bytes.toBytes("never")));
            Transaction reader = tm.begin();
            assertTrue(table.get(reader, new Get(pendingRow)).isEmpty(), "low-latency readers invalidate");
            assertEquals(1L, count(name, ClientMetrics.INVALIDATIONS));
            TransactionAbortedException invalidated = assertThrows(TransactionAbortedException.class,
                    () -> tm.commit(pending));
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, invalidated.reason());
            assertEquals(1L, count(name, ClientMetrics.abortName(TransactionAbortedException.Reason.INVALIDATED)));

            byte[] orphanRow = Bytes.toBytes("orphan");
            Transaction orphan = diesAfterCommitPoint.begin();
            table.put(orphan, new Put(orphanRow).addColumn(F, X, Bytes.toBytes("committed")));
            diesAfterCommitPoint.commit(orphan);
            Transaction healer = tm.begin();
            assertEquals("committed", Bytes.toString(table.get(healer, new Get(orphanRow)).getValue(F, X)));
            assertEquals(1L, count(name, ClientMetrics.HEALS));
            assertEquals(1L, count(name, ClientMetrics.INVALIDATIONS), "the committed writer was not invalidated");
        }
    }

    @Test
    void aSecondManagerWithTheSameNameGetsASuffix() throws Exception {
        String name = "metrics-" + MANAGERS.incrementAndGet();
        try (TransactionManager first = manager(name).build();
             TransactionManager second = manager(name).build()) {
            assertEquals(name, first.metricsName());
            assertEquals(name + "-2", second.metricsName());
            second.commit(second.begin());
            assertEquals(0L, count(name, ClientMetrics.BEGINS));
            assertEquals(1L, count(name + "-2", ClientMetrics.BEGINS));
        }
    }

    @Test
    void aNameThatCannotBeAJmxNameIsRefusedWithTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> manager("a,b=c").build());
        assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_METRICS_NAME.key()), e.getMessage());
    }

    private static TransactionManager.Builder manager(String metricsName) {
        return env.managerBuilder().config(env.configWith(
                config -> config.set(TidemarkConfig.CLIENT_METRICS_NAME, metricsName)));
    }

    private static long count(String manager, String metric) throws JMException {
        return (Long) JMX.getAttribute(ClientMetrics.objectName(manager, metric), "Count");
    }
}
